import { z } from "zod";
import { ApiSchemaError, CallCreateSchema, E164Schema, UuidSchema, type Call, type CallCreate } from "../../client/index.js";
import { PartialCreateError } from "../kit/errors.js";
import { defineKind } from "../kit/kind.js";

/** True when `to` is one of the allowed numbers or starts with an allowed `prefix*`. */
export function isAllowedDestination(to: string, allowed: string[]): boolean {
  return allowed.some((a) => (a.endsWith("*") ? to.startsWith(a.slice(0, -1)) : to === a));
}

/**
 * Call: calls/create places it, at most once (an unknown outcome is looked up in calls/list, never
 * re-dialled), and never during preview; destroy ends it. Only who calls whom, with which agent
 * (and `triggers`) make a new call; `allowedDestinations` is a guard checked at preview.
 */
export const callKind = defineKind<Call, CallCreate>()({
  kind: "Call",
  input: z.object({
    fromNumber: E164Schema,
    toNumber: E164Schema,
    agent: UuidSchema,
    allowedDestinations: z.array(z.string().regex(/^\+[1-9]\d{0,14}\*?$/, { error: "must be an E.164 number, or a prefix ending in *" })).optional(),
    triggers: z.array(z.unknown()).optional(),
  }),
  fields: {
    fromNumber: { wire: "from_number", read: (c) => c.from_number, replaces: true },
    toNumber: { wire: "to_number", read: (c) => c.to_number, replaces: true },
    agent: { wire: "agent", read: (c) => c.agent.id, replaces: true },
    allowedDestinations: { wire: null, read: (_c, recorded) => recorded.allowedDestinations },
    triggers: { wire: null, read: (_c, recorded) => recorded.triggers, replaces: true },
  },
  // transcript and errorMessage are personal data: the resource marks them additionalSecretOutputs.
  outputs: {
    status: (c) => c.status,
    errorMessage: (c) => c.error_message ?? undefined,
    transcript: (c) => c.transcript ?? undefined,
    recordingAvailable: (c) => c.recording_available,
    userId: (c) => c.user_id,
  },
  readRoutes: "calls",
  deleteBeforeReplace: true,
  refine: (inputs) =>
    inputs.allowedDestinations && inputs.toNumber && !isAllowedDestination(inputs.toNumber, inputs.allowedDestinations)
      ? [{ property: "toNumber", reason: "toNumber is not in allowedDestinations: nothing was dialled" }]
      : [],
  async create(client, inputs, bodies) {
    try {
      return await client.calls.create(CallCreateSchema.parse(bodies.create));
    } catch (err) {
      // The call was placed but its answer could not be read: keep it tracked so a later up can
      // read it back and destroy can end it.
      if (err instanceof ApiSchemaError && err.receivedId) {
        throw new PartialCreateError(
          `voiceagent:Call create: call ${err.receivedId} was placed, but its answer did not match the expected shape (${err.summary}). ` +
            "It is tracked in the state: run `pulumi up` to read it back, or `pulumi destroy` to end it",
          err.receivedId,
          { ...inputs, status: "unknown" },
          [err.summary],
        );
      }
      throw err;
    }
  },
  read: (client, id) => client.calls.get(id),
  // Only allowedDestinations can change in place, and it is checked at preview: nothing to send.
  // A call whose create answer was unreadable is read back instead, so it is no longer stuck.
  update: async (client, id, _inputs, _recorded, _bodies, state) => (state.status === "unknown" ? client.calls.get(id) : undefined),
  delete: async (client, id) => {
    await client.calls.end(id);
  },
});
