import { z } from "zod";
import { ActionTypeSchema, ActionWriteSchema, E164Schema, UuidSchema, type Action, type ActionWrite } from "../../schemas/index.js";
import { defineKind } from "../kit/kind.js";

/** An action's config as the program writes it: camelCase `phoneNumber`; other keys pass as they are. */
const ConfigSchema = z.looseObject({ phoneNumber: E164Schema.optional() });
type Config = z.output<typeof ConfigSchema>;

/** Action: the extension endpoints actions/create, actions/update and GET /v1/actions. */
export const actionKind = defineKind<Action, ActionWrite>()({
  kind: "Action",
  input: z.object({
    type: ActionTypeSchema.default("action_end_conversation"),
    config: ConfigSchema.default({}),
    actionId: UuidSchema.optional(),
  }),
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
    actionId: { wire: null, read: (_a, recorded) => recorded.actionId, replaces: true },
  },
  adopt: "actionId",
  outputs: { userId: (a) => a.user_id },
  readRoutes: "actions",
  create: (client, inputs, bodies) => {
    const body = ActionWriteSchema.parse(bodies.create);
    return inputs.actionId ? client.actions.update(inputs.actionId, body) : client.actions.create(body);
  },
  read: (client, id) => client.actions.get(id),
  update: (client, id, _inputs, _recorded, bodies) => client.actions.update(id, ActionWriteSchema.parse(bodies.update)),
  forgetNote: "the service has no delete for actions; it is removed from the stack and left on the service",
});
