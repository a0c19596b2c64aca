import { z } from "zod";
import { ActionTypeSchema, ActionWriteSchema, E164Schema, UuidSchema, type Action, type ActionWrite } from "../../schemas/index.js";
import { adoptable } from "../kit/adoptable.js";
import { defineKind } from "../kit/kind.js";

/** An action's config as the program writes it: camelCase `phoneNumber`; other keys pass as they are. */
const ConfigSchema = z.looseObject({ phoneNumber: E164Schema.optional() });
type Config = z.output<typeof ConfigSchema>;

const input = z.object({
  type: ActionTypeSchema.default("action_end_conversation"),
  config: ConfigSchema.default({}),
  actionId: UuidSchema.optional(),
});

/** Action: the extension endpoints actions/create, actions/update and GET /v1/actions. */
export const actionKind = defineKind<Action, ActionWrite>()({
  kind: "Action",
  input,
  fields: {
    type: { wire: "type", read: (a) => a.type },
    config: {
      wire: "config",
      toWire: ({ phoneNumber, ...rest }: Config) => ({ ...rest, ...(phoneNumber === undefined ? {} : { phone_number: phoneNumber }) }),
      read: (a) => {
        const { phone_number, ...rest } = a.config;
        return { ...rest, ...(phone_number === undefined ? {} : { phoneNumber: phone_number }) };
      },
    },
    // Naming the object this resource already manages is no change.
    actionId: { wire: null, read: (_a, recorded) => recorded.actionId, live: (_recorded, id) => id, replaces: true },
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
