import { z } from "zod";
import { ActionTypeSchema, E164Schema, UuidSchema, type Action } from "../../schemas/index.js";
import { compact, found, type Props, type ResourceSpec } from "../kit/spec.js";

const shape = {
  type: ActionTypeSchema.default("action_end_conversation"),
  config: z.looseObject({ phoneNumber: E164Schema.optional() }).default({}),
  actionId: UuidSchema.optional(),
};

/** camelCase config ↔ the wire's snake_case `phone_number`; other keys pass as they are. */
function configToWire(config: Props | undefined): Record<string, unknown> {
  const { phoneNumber, ...rest } = config ?? {};
  return compact({ ...rest, phone_number: phoneNumber });
}
function configFromWire(config: Record<string, unknown>): Props {
  const { phone_number, ...rest } = config;
  return compact({ ...rest, phoneNumber: phone_number });
}

const outsOf = (a: Action, inputs: Props): Props =>
  compact({ type: a.type, config: configFromWire(a.config), actionId: inputs.actionId, userId: a.user_id });
const body = (p: Props) => ({ type: p.type as z.infer<typeof ActionTypeSchema>, config: configToWire(p.config as Props) });

/** Action: the extension endpoints actions/create, actions/update and GET /v1/actions. */
export const actionSpec: ResourceSpec = {
  kind: "Action",
  shape,
  fields: { type: "type", phone_number: "config.phoneNumber" },
  diff: {
    fields: ["type", "config", "actionId"],
    replaceOn: ["actionId"],
    normalize: (p) => ({ ...p, type: p.type ?? "action_end_conversation", config: p.config ?? {} }),
  },
  async create(client, inputs) {
    const a = inputs.actionId
      ? await client.actions.update(inputs.actionId as string, body(inputs))
      : await client.actions.create(body(inputs));
    return { id: a.id, outs: outsOf(a, inputs) };
  },
  async read(client, id, props) {
    return found(outsOf(await client.actions.get(id), props), ["userId"]);
  },
  async update(client, id, _olds, news) {
    return outsOf(await client.actions.update(id, body(news)), news);
  },
  forgetNote: "the service has no delete for actions; it is removed from the stack and left on the service",
};
