import { z } from "zod";
import { ActionTypeSchema, ActionWriteSchema, E164Schema, UuidSchema, type Action, type ActionWrite } from "../../schemas/index.js";
import { adoptable } from "../kit/adoptable.js";
import { defineKind } from "../kit/kind.js";

/** An action's config as the program writes it: camelCase `phoneNumber`; other keys pass as they are. */
const ConfigSchema = z.looseObject({
  phoneNumber: E164Schema.optional().meta({ description: "For action_transfer_call (and shown on action_end_conversation): a number, E.164." }),
});
type Config = z.output<typeof ConfigSchema>;

const input = z.object({
  type: ActionTypeSchema.default("action_end_conversation"),
  config: ConfigSchema.default({}),
  actionId: UuidSchema.optional(),
});

/** Action: the extension endpoints actions/create, actions/update and GET /v1/actions. */
export const actionKind = defineKind<Action, ActionWrite>()({
  kind: "Action",
  account: "actions",
  doc: "Something an agent can do during a call. Uses the service's actions/create and actions/update; destroy forgets it.",
  example: 'const hangUp = new Action("end-call", { type: "action_end_conversation" });',
  examples: {
    python: 'hang_up = voiceagent.Action("end-call", type=voiceagent.ActionType.END_CONVERSATION)',
    go:
      'hangUp, err := voiceagent.NewAction(ctx, "end-call", &voiceagent.ActionArgs{\n' +
      "\tType: voiceagent.ActionTypeEndConversation,\n" +
      "})",
  },
  importId: "its id (a UUID)",
  input,
  fields: {
    type: { doc: "What it does: action_end_conversation (default), action_transfer_call or action_dtmf.", wire: "type", read: (a) => a.type },
    config: {
      doc: "Its configuration: `phoneNumber` (E.164) for action_transfer_call; other keys are passed to the service as they are.",
      wire: "config",
      toWire: ({ phoneNumber, ...rest }: Config) => ({ ...rest, ...(phoneNumber === undefined ? {} : { phone_number: phoneNumber }) }),
      read: (a) => {
        const { phone_number, ...rest } = a.config;
        return { ...rest, ...(phone_number === undefined || phone_number === null ? {} : { phoneNumber: phone_number }) };
      },
    },
    // Naming the object this resource already manages is no change.
    actionId: { doc: "Adopt an existing action instead of creating one. Changing it replaces.", wire: null, read: (_a, recorded) => recorded.actionId, live: (_recorded, id) => id, replaces: true },
  },
  ...adoptable({
    input,
    family: "actions",
    noun: "action",
    adopt: "actionId",
    adoptId: (inputs) => inputs.actionId,
    routes: (client) => client.actions,
    parse: (body) => ActionWriteSchema.parse(body),
  }),
});
