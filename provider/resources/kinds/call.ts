import { z } from "zod";
import {
  ApiBookkeepingError,
  ApiSchemaError,
  CallCreateSchema,
  E164Schema,
  UuidSchema,
  type Call,
  type CallCreate,
} from "../../client/index.js";
import { DestinationPatternSchema, isAllowedDestination } from "../../schemas/index.js";
import { inputFailure } from "../kit/check.js";
import { PartialCreateError } from "../kit/errors.js";
import { defineKind } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";

/**
 * Call: calls/create places it, at most once (an unknown outcome is looked up in calls/list, never
 * re-dialled), and never during preview; destroy ends it. Only who calls whom, with which agent
 * (and `triggers`) make a new call; `allowedDestinations` is a guard checked at preview.
 */
export const callKind = defineKind<Call, CallCreate>()({
  kind: "Call",
  doc:
    "A phone call. `up` places it, at most once (never during preview, never re-dialled blindly: a lost answer is " +
    "looked up in the service's call list). A change to who calls whom, the agent or `triggers` ends the old call " +
    "and places a new one; destroy ends it. Its transcript and error message are secret outputs (personal data).",
  importId: "its id (a UUID); destroying it then ends the call",
  input: z.object({
    fromNumber: E164Schema,
    toNumber: E164Schema,
    agent: UuidSchema,
    allowedDestinations: z.array(DestinationPatternSchema).optional(),
    triggers: z.array(z.unknown()).optional(),
  }),
  fields: {
    fromNumber: {
      doc: "The caller id: a number the account owns, E.164. Changing it places a new call.",
      wire: "from_number",
      read: (c) => c.from_number,
      change: "replaces",
    },
    toNumber: {
      doc: "The number to dial, E.164. Changing it places a new call.",
      wire: "to_number",
      read: (c) => c.to_number,
      change: "replaces",
    },
    agent: {
      doc: "The id of the agent that drives the call. Changing it places a new call.",
      wire: "agent",
      read: (c) => c.agent.id,
      change: "replaces",
    },
    allowedDestinations: {
      doc:
        'Numbers (or prefixes ending in `*`, e.g. "+1555*") this call may dial. A number to dial outside them fails at preview, ' +
        "before anything is dialled. Changing it never places a new call.",
      wire: null,
      read: (_c, recorded) => recorded.allowedDestinations,
    },
    triggers: {
      doc: "Any values; a change to them places the call again (as pulumi-command's `triggers`).",
      wire: null,
      read: (_c, recorded) => recorded.triggers,
      change: "replaces",
    },
  },
  // transcript and errorMessage are personal data: secret outputs, encrypted in the state.
  outputs: {
    status: {
      type: "string",
      doc: "not_started, in_progress, error or ended (as of the last up or refresh).",
      read: (c) => c.status,
      optional: true,
    },
    errorMessage: {
      type: "string",
      doc: "The service's error text, if the call failed (a secret: personal data).",
      read: (c) => c.error_message,
      optional: true,
      secret: true,
    },
    transcript: {
      type: "string",
      doc: "The transcript, once there is one (a secret: personal data).",
      read: (c) => c.transcript,
      optional: true,
      secret: true,
    },
    recordingAvailable: {
      type: "boolean",
      doc: "Whether a recording exists.",
      read: (c) => c.recording_available,
      optional: true,
    },
    userId: ownerOutput(),
  },
  collection: "calls",
  extensionReads: true,
  deleteBeforeReplace: true,
  refine: (inputs) =>
    inputs.allowedDestinations && inputs.toNumber && !isAllowedDestination(inputs.toNumber, inputs.allowedDestinations)
      ? [inputFailure("toNumber is not in allowedDestinations, so it is not dialled")]
      : [],
  async create({ client, inputs, bodies }) {
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
      // Placed and answered, then the deployment's record of creates failed: the same, by its id.
      if (err instanceof ApiBookkeepingError && err.madeId) {
        throw new PartialCreateError(
          `voiceagent:Call create: ${err.summary}. ` +
            "It is tracked in the state: run `pulumi up` to read it back, or `pulumi destroy` to end it; it is not placed again",
          err.madeId,
          { ...inputs, status: "unknown" },
          [err.summary],
        );
      }
      throw err;
    }
  },
  read: ({ client, id }) => client.calls.get(id),
  // Only allowedDestinations can change in place, and it is checked at preview: nothing to send.
  // A call whose create answer was unreadable is read back instead, so it is no longer stuck.
  update: async ({ client, id, olds }) => (olds.status === "unknown" ? client.calls.get(id) : undefined),
  delete: async ({ client, id }) => {
    await client.calls.end(id);
  },
});
