import { z } from "zod";
import { ApiSchemaError, E164Schema, UuidSchema, type Call } from "../../client/index.js";
import { PartialCreateError } from "../kit/errors.js";
import { compact, found, type Props, type ResourceSpec } from "../kit/spec.js";

const shape = {
  fromNumber: E164Schema,
  toNumber: E164Schema,
  agent: UuidSchema,
  allowedDestinations: z
    .array(z.string().regex(/^\+[1-9]\d{0,14}\*?$/, { error: "must be an E.164 number, or a prefix ending in *" }))
    .optional(),
};

/** True when `to` is one of the allowed numbers or starts with an allowed `prefix*`. */
export function isAllowedDestination(to: string, allowed: string[]): boolean {
  return allowed.some((a) => (a.endsWith("*") ? to.startsWith(a.slice(0, -1)) : to === a));
}

const outsOf = (c: Call, inputs: Props): Props =>
  compact({
    fromNumber: c.from_number,
    toNumber: c.to_number,
    agent: c.agent.id,
    allowedDestinations: inputs.allowedDestinations,
    status: c.status,
    errorMessage: c.error_message ?? undefined,
    transcript: c.transcript ?? undefined,
    recordingAvailable: c.recording_available,
    userId: c.user_id,
  });

/** Call: calls/create places it (never retried, never during preview); destroy ends it. */
export const callSpec: ResourceSpec = {
  kind: "Call",
  shape,
  fields: { from_number: "fromNumber", to_number: "toNumber", agent: "agent" },
  refine: (inputs) => {
    const allowed = inputs.allowedDestinations as string[] | undefined;
    const to = inputs.toNumber as string;
    if (allowed && !isAllowedDestination(to, allowed)) {
      return [{ property: "toNumber", reason: `toNumber ${to} is not in allowedDestinations (${allowed.join(", ")})` }];
    }
    return [];
  },
  diff: { fields: ["fromNumber", "toNumber", "agent", "allowedDestinations"], replaceOn: [], replaceOnAnyChange: true, deleteBeforeReplace: true, normalize: (p) => p },
  async create(client, inputs) {
    try {
      const c = await client.calls.create({
        from_number: inputs.fromNumber as string,
        to_number: inputs.toNumber as string,
        agent: inputs.agent as string,
      });
      return { id: c.id, outs: outsOf(c, inputs) };
    } catch (err) {
      // The call was placed but its answer could not be read: keep it tracked so destroy ends it.
      if (err instanceof ApiSchemaError && err.receivedId) {
        throw new PartialCreateError(
          `voiceagent:Call create: call ${err.receivedId} was placed but the answer did not match the expected shape (${err.message}); it is tracked so destroy can end it`,
          err.receivedId,
          compact({ ...inputs, status: "unknown" }),
          [err.message],
        );
      }
      throw err;
    }
  },
  async read(client, id, props) {
    const outputOnly = ["status", "errorMessage", "transcript", "recordingAvailable", "userId"];
    return found(outsOf(await client.calls.get(id), props), outputOnly);
  },
  async update() {
    throw new Error("calls cannot change in place; every change replaces the call");
  },
  async delete(client, id) {
    await client.calls.end(id);
  },
};
