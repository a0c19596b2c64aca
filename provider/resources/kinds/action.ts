import { z } from "zod";
import {
  ActionTypeSchema,
  ActionWriteSchema,
  E164Schema,
  UuidSchema,
  type Action,
  type ActionWrite,
} from "../../schemas/index.js";
import { adoptable } from "../kit/adoptable.js";
import { defineKind } from "../kit/kind.js";
import type { Json } from "../../schemas/json.js";
import { refusal, slug } from "../kit/pull.js";

/** An action's base name: its type without the `action_` prefix, and the last digits of its number. */
export function actionBaseName(a: Pick<Action, "type" | "config">): string {
  const type = slug(a.type.replace(/^action_/, "")) || "action";
  const phone = typeof a.config.phone_number === "string" ? a.config.phone_number.replace(/\D/g, "").slice(-4) : "";
  return phone ? `${type}-${phone}` : type;
}

/** camelCase `phoneNumber` for the wire's `phone_number`; other keys as they are (the client already dropped `__proto__`). */
function actionConfig(config: Action["config"]): Json {
  // The current API may send a null config, or a null phone_number: neither is a setting.
  const { phone_number, ...rest } = config ?? {};
  return z
    .record(z.string(), z.json())
    .parse({ ...(phone_number === undefined || phone_number === null ? {} : { phoneNumber: phone_number }), ...rest });
}

/** The service's own spelling of `phoneNumber`: what a Python user writes in a plain dict. */
const WIRE_PHONE = "phone_number";

/**
 * An action's config as the program writes it: camelCase `phoneNumber`; other keys pass as they
 * are. The service's `phone_number` is taken as `phoneNumber`, checked the same way and stored
 * under that name: the read-back says `phoneNumber`, so a config kept under the other key would
 * differ on every `up` and never converge.
 */
const ConfigSchema = z
  .looseObject({
    phoneNumber: E164Schema.optional().meta({
      description: "For action_transfer_call (and shown on action_end_conversation): a number, E.164.",
    }),
  })
  .superRefine((config, ctx) => {
    const given = config[WIRE_PHONE];
    if (given === undefined) return;
    const parsed = E164Schema.safeParse(given);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", message: issue.message, path: [WIRE_PHONE] });
    } else if (config.phoneNumber !== undefined && config.phoneNumber !== parsed.data) {
      ctx.addIssue({
        code: "custom",
        message: "names two different numbers (phoneNumber and phone_number are one setting): keep phoneNumber",
        path: [],
      });
    }
  })
  .overwrite(({ [WIRE_PHONE]: wire, ...rest }) => (typeof wire === "string" ? { ...rest, phoneNumber: wire } : rest))
  .meta({ description: "An action's configuration: the keys its type takes (the service's `TransferCallConfig`)." });
type Config = z.output<typeof ConfigSchema>;

const input = z.object({
  type: ActionTypeSchema.default("action_end_conversation"),
  config: ConfigSchema.default({}),
  actionId: UuidSchema.optional(),
});

/** Action: the extension endpoints actions/create, actions/update and GET /v1/actions. */
export const actionKind = defineKind<Action, ActionWrite>()({
  kind: "Action",
  pull: {
    name: actionBaseName,
    refuse: (a) => refusal(ActionWriteSchema.safeParse(a)),
    adopt: (a) => {
      const config = actionConfig(a.config);
      const hasConfig = typeof config === "object" && config !== null && Object.keys(config).length > 0;
      return { args: { actionId: a.id, type: a.type, ...(hasConfig ? { config } : {}) }, refs: [] };
    },
  },
  doc: "Something an agent can do during a call. Uses the service's actions/create and actions/update; destroy forgets it.",
  importId: "its id (a UUID)",
  input,
  fields: {
    type: {
      doc: "What it does: action_end_conversation (default), action_transfer_call or action_dtmf.",
      wire: "type",
      read: (a) => a.type,
    },
    config: {
      doc: "Its configuration: `phoneNumber` (E.164) for action_transfer_call; other keys are passed to the service as they are.",
      wire: "config",
      toWire: ({ phoneNumber, ...rest }: Config) => ({
        ...rest,
        ...(phoneNumber === undefined ? {} : { phone_number: phoneNumber }),
      }),
      read: (a) => {
        const { phone_number, ...rest } = a.config;
        return {
          ...rest,
          ...(phone_number === undefined || phone_number === null ? {} : { phoneNumber: phone_number }),
        };
      },
    },
    // Naming the object this resource already manages is no change.
    actionId: {
      doc: "Adopt an existing action instead of creating one. Changing it replaces.",
      wire: null,
      read: (_a, recorded) => recorded.actionId,
      compare: { live: (_recorded, id) => id },
      change: "replaces",
    },
  },
  ...adoptable({
    input,
    collection: "actions",
    noun: "action",
    adopt: "actionId",
    adoptId: (inputs) => inputs.actionId,
    routes: (client) => client.actions,
    parse: (body) => ActionWriteSchema.parse(body),
  }),
});
