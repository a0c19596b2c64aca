import { z } from "zod";
import {
  ACTION_TRIGGER_TYPES,
  ACTION_TYPES_2023,
  ActionBodySchema,
  ActionTypeSchema,
  E164Schema,
  EXTERNAL_PROCESSING_MODES,
  PHRASE_CONDITIONS,
  UuidSchema,
  WebhookUrlSchema,
  type Action,
  type ActionBody,
  type ActionTriggerRead,
  type ActionType,
} from "../../schemas/index.js";
import { adoptable } from "../kit/adoptable.js";
import { type CheckFailure, closedObject, inputFailure } from "../kit/check.js";
import { defineKind } from "../kit/kind.js";
import type { Json } from "../../schemas/json.js";
import { type PulledSecret, refusal, slug } from "../kit/pull.js";

/** An action's base name: its type without the `action_` prefix, and the last digits of its number or its external name. */
export function actionBaseName(a: Pick<Action, "type" | "config">): string {
  const type = slug(a.type.replace(/^action_/, "")) || "action";
  const phone = typeof a.config.phone_number === "string" ? a.config.phone_number.replace(/\D/g, "").slice(-4) : "";
  const name = typeof a.config.name === "string" ? slug(a.config.name, 3) : "";
  return phone ? `${type}-${phone}` : name ? `${type}-${name}` : type;
}

/**
 * The config keys the provider knows, camelCase as the program writes them, with the service's
 * spelling: each is sent and read under the service's name; a key not here passes as it is.
 */
const CONFIG_WIRE = {
  phoneNumber: "phone_number",
  placePrimaryOnHold: "place_primary_on_hold",
  name: "name",
  description: "description",
  url: "url",
  inputSchema: "input_schema",
  speakOnSend: "speak_on_send",
  speakOnReceive: "speak_on_receive",
  processingMode: "processing_mode",
} as const;
type ConfigKey = keyof typeof CONFIG_WIRE;
const CONFIG_KEYS = Object.keys(CONFIG_WIRE).filter((k): k is ConfigKey => k in CONFIG_WIRE);

/** Which config keys each type takes (0.0.48's config of each), and which of them it requires. */
const TYPE_CONFIG: Record<ActionType, { keys: readonly ConfigKey[]; required: readonly ConfigKey[] }> = {
  // A number on end_conversation is what the interface's fake has always shown; it is kept.
  action_end_conversation: { keys: ["phoneNumber"], required: [] },
  action_transfer_call: { keys: ["phoneNumber"], required: [] },
  action_dtmf: { keys: [], required: [] },
  action_external: {
    keys: ["name", "description", "url", "inputSchema", "speakOnSend", "speakOnReceive", "processingMode"],
    required: ["name", "description", "url", "inputSchema", "speakOnSend", "speakOnReceive"],
  },
  action_add_to_conference: { keys: ["phoneNumber", "placePrimaryOnHold"], required: ["phoneNumber"] },
  action_set_hold: { keys: [], required: [] },
};
/** The types that take only the model's function call as trigger (0.0.48: dtmf and external). */
const FUNCTION_CALL_ONLY: readonly ActionType[] = ["action_dtmf", "action_external"];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Is `k` a config key the provider knows. */
const isConfigKey = (k: string): k is ConfigKey => k in CONFIG_WIRE;

/**
 * An action's config as the program writes it: camelCase keys, each type's own (the check holds
 * each to its type: `refine` below); other keys pass as they are. The service's spelling of a
 * known key (`phone_number`, what a Python user writes in a plain dict) is taken as the camelCase
 * one, checked the same way and stored under that name: the read-back says camelCase, so a config
 * kept under the other key would differ on every `up` and never converge.
 */
const ConfigSchema = z
  .looseObject({
    phoneNumber: E164Schema.optional().meta({
      description:
        "For action_transfer_call and action_add_to_conference (and shown on action_end_conversation): a number, E.164.",
    }),
    placePrimaryOnHold: z.boolean().optional().meta({
      description: "For action_add_to_conference: whether the caller is put on hold while the number is added.",
    }),
    name: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "For action_external: the function's name, as the model sees it." }),
    description: z
      .string()
      .optional()
      .meta({ description: "For action_external: what the function does, for the model to decide when to call it." }),
    url: WebhookUrlSchema.optional().meta({
      description:
        "For action_external: the team's API the service calls (an http(s) URL; the policy pack can require https and allowed hosts).",
    }),
    // A record of unknown values, each held to JSON: zod's recursive JSON type has no package schema type.
    inputSchema: z
      .record(z.string(), z.unknown())
      .refine((v) => z.json().safeParse(v).success, { error: "must be a JSON object" })
      .optional()
      .meta({ description: "For action_external: a JSON Schema object of what the model sends the API." }),
    speakOnSend: z
      .boolean()
      .optional()
      .meta({ description: "For action_external: whether the agent speaks while the request is sent." }),
    speakOnReceive: z
      .boolean()
      .optional()
      .meta({ description: "For action_external: whether the agent speaks the API's answer." }),
    processingMode: z.enum(EXTERNAL_PROCESSING_MODES).optional().meta({
      description:
        "For action_external: `muted` keeps the agent silent while the API works; unset: the service's default.",
    }),
  })
  .superRefine((config, ctx) => {
    for (const key of CONFIG_KEYS) {
      const wire = CONFIG_WIRE[key];
      if (wire === key) continue;
      const given = config[wire];
      if (given === undefined) continue;
      const parsed = ConfigSchema.shape[key].safeParse(given);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [wire] });
      } else if (config[key] !== undefined && JSON.stringify(config[key]) !== JSON.stringify(parsed.data)) {
        ctx.addIssue({
          code: "custom",
          message: `names two different ${key === "phoneNumber" ? "numbers" : "values"} (${key} and ${wire} are one setting): keep ${key}`,
          path: [],
        });
      }
    }
  })
  .overwrite((config) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(config)) {
      const known = CONFIG_KEYS.find((key) => CONFIG_WIRE[key] === k && key !== k);
      if (known) {
        if (v !== undefined) out[known] = v;
      } else if (out[k] === undefined) out[k] = v;
    }
    return {
      ...out,
      ...Object.fromEntries(CONFIG_KEYS.flatMap((k) => (config[k] === undefined ? [] : [[k, config[k]]]))),
    };
  })
  .meta({
    description:
      "An action's configuration: the keys its type takes (0.0.48's `TransferCallConfig`, `AddToConferenceConfig`, `ExternalActionConfig`).",
  });
type Config = z.output<typeof ConfigSchema>;

/** One phrase that sets the action off. */
const PhraseTriggerInput = closedObject({
  phrase: z.string().min(1, { error: "must not be empty" }).meta({ description: "What the caller says." }),
  conditions: z
    .array(z.enum(PHRASE_CONDITIONS))
    .min(1, { error: "must name at least one condition" })
    .default(["phrase_condition_type_contains"])
    .meta({
      description:
        "How it matches: phrase_condition_type_contains (default: what the caller says contains the phrase).",
    }),
});

/** How the action is set off: the model decides (function call), or phrases the caller says. */
const TriggerInput = closedObject({
  type: z.enum(ACTION_TRIGGER_TYPES).meta({
    description: "action_trigger_function_call (the model decides, as when unset) or action_trigger_phrase_based.",
  }),
  phraseTriggers: z
    .array(PhraseTriggerInput)
    .optional()
    .meta({ description: "For action_trigger_phrase_based: the phrases, each with how it matches." }),
}).meta({ description: "How the action is set off (current API)." });
type Trigger = z.output<typeof TriggerInput>;

const input = z.object({
  type: ActionTypeSchema.default("action_end_conversation"),
  config: ConfigSchema.default({}),
  actionTrigger: TriggerInput.optional(),
  signatureSecret: z.string().min(1, { error: "must not be empty" }).optional(),
  actionId: UuidSchema.optional(),
});
type ActionInputs = z.output<typeof input>;

/** An action as the kind asks for it: the provider's body with the signature secret beside its config (kinds/action.ts `create`). */
type ActionFlat = ActionBody & { signature_secret?: string };

/** The provider's body with the signature secret moved into the config, where the service takes it. */
function wireBodyOf(flat: unknown): ActionBody {
  const { signature_secret, ...rest } = isRecord(flat) ? flat : {};
  const body = ActionBodySchema.parse(rest);
  return typeof signature_secret === "string" ? { ...body, config: { ...body.config, signature_secret } } : body;
}

/** The config as the program writes it, from the service's: camelCase known keys, nulls and the signature secret left out. */
function configOf(config: Action["config"]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(config ?? {})) {
    if (v === null || v === undefined || k === "signature_secret") continue;
    const known = CONFIG_KEYS.find((key) => CONFIG_WIRE[key] === k);
    out[known ?? k] = z.json().parse(v);
  }
  return out;
}

/** The trigger as the program writes it; the model's function call (or none) reads as unset unless the program says it. */
function triggerOf(
  t: ActionTriggerRead | null | undefined,
  recorded?: Trigger,
): Trigger | { type: string } | undefined {
  if (!t || t.type === "action_trigger_function_call")
    return recorded?.type === "action_trigger_function_call" ? recorded : undefined;
  if (t.type !== "action_trigger_phrase_based") return { type: t.type };
  const phrases = t.config?.phrase_triggers ?? [];
  return {
    type: "action_trigger_phrase_based",
    phraseTriggers: phrases.map((p) => ({
      phrase: p.phrase,
      conditions: p.conditions.filter((c): c is (typeof PHRASE_CONDITIONS)[number] =>
        PHRASE_CONDITIONS.some((k) => k === c),
      ),
    })),
  };
}

/** The per-type rules, each naming the field: what the type takes, what it needs, the triggers it takes. */
function typeRules(inputs: Partial<ActionInputs>): CheckFailure[] {
  const type = inputs.type ?? "action_end_conversation";
  const rules = TYPE_CONFIG[type];
  const failures: CheckFailure[] = [];
  const config = inputs.config;
  if (isRecord(config)) {
    for (const key of CONFIG_KEYS) {
      if (config[key] !== undefined && !rules.keys.includes(key)) {
        const owners = Object.entries(TYPE_CONFIG)
          .filter(([, r]) => r.keys.includes(key))
          .map(([t]) => t);
        failures.push(
          inputFailure(
            `config.${key}: ${type} takes no ${key} (${owners.join(", ")} does); its config keys are ${rules.keys.join(", ") || "none"}`,
          ),
        );
      }
    }
    for (const key of rules.required)
      if (config[key] === undefined) failures.push(inputFailure(`config.${key}: ${type} needs it`));
  }
  if (inputs.signatureSecret !== undefined && type !== "action_external")
    failures.push(inputFailure(`signatureSecret: only action_external takes one (${type} calls no API)`));
  const trigger = inputs.actionTrigger;
  if (trigger) {
    if (trigger.type === "action_trigger_phrase_based" && FUNCTION_CALL_ONLY.includes(type))
      failures.push(
        inputFailure(`actionTrigger.type: ${type} takes only action_trigger_function_call (the model decides)`),
      );
    if (trigger.type === "action_trigger_phrase_based" && !trigger.phraseTriggers?.length)
      failures.push(inputFailure("actionTrigger.phraseTriggers: a phrase-based trigger needs at least one phrase"));
    if (trigger.type === "action_trigger_function_call" && trigger.phraseTriggers?.length)
      failures.push(
        inputFailure(
          "actionTrigger.phraseTriggers: only action_trigger_phrase_based takes phrases (the model decides here)",
        ),
      );
  }
  return failures;
}

/** What the interface (2023) cannot express: the current API's types and phrase triggers. */
function refusedOn2023(news: Partial<ActionInputs>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const type = news.type ?? "action_end_conversation";
  if (!ACTION_TYPES_2023.some((t) => t === type))
    failures.push(
      inputFailure(
        `type: the 2023 API has no ${type} (it has ${ACTION_TYPES_2023.join(", ")}); nothing was sent: ` +
          "set voiceagent:api 2024 if the service speaks the current API",
      ),
    );
  if (news.actionTrigger?.type === "action_trigger_phrase_based")
    failures.push(
      inputFailure(
        "actionTrigger: the 2023 API has no action triggers (its model decides when to act); nothing was sent: " +
          "leave it unset, or set voiceagent:api 2024",
      ),
    );
  return failures;
}

/** The signature secret the service echoed, unless masked (`****abcd`): a masked echo is no value. */
const unmasked = (s: string | null | undefined) => (s && !s.startsWith("****") ? s : undefined);

/** Action: the extension endpoints actions/create, actions/update and GET /v1/actions. */
export const actionKind = defineKind<Action, ActionFlat>()({
  kind: "Action",
  pull: {
    name: actionBaseName,
    refuse: (a) => {
      const adopted = input.safeParse({
        type: a.type,
        config: configOf(a.config),
        ...(a.action_trigger ? { actionTrigger: triggerOf(a.action_trigger) } : {}),
      });
      if (!adopted.success) return refusal(adopted);
      const failures = typeRules(adopted.data);
      return failures.length ? `the provider would refuse it: ${failures.map((f) => f.reason).join("; ")}` : undefined;
    },
    adopt: (a) => {
      const config = configOf(a.config);
      const trigger = triggerOf(a.action_trigger);
      // The signature secret is never pulled as a value: the user supplies it as secret config.
      const secrets: PulledSecret[] =
        a.type === "action_external" && a.config.signature_secret
          ? [{ key: "signatureSecret", what: `the signature secret of external action ${a.id}` }]
          : [];
      return {
        args: {
          actionId: a.id,
          type: a.type,
          ...(Object.keys(config).length > 0 ? { config } : {}),
          ...(trigger ? { actionTrigger: z.json().parse(trigger) } : {}),
        },
        refs: [],
        ...(secrets.length ? { secrets } : {}),
      };
    },
  },
  doc: "Something an agent can do during a call. Uses the service's actions/create and actions/update; destroy forgets it.",
  importId: "its id (a UUID)",
  input,
  fields: {
    type: {
      doc:
        "What it does: action_end_conversation (default), action_transfer_call or action_dtmf; on the current API also " +
        "action_external (calls the team's API), action_add_to_conference and action_set_hold.",
      wire: "type",
      read: (a) => a.type,
    },
    config: {
      doc:
        "Its configuration, the keys its type takes: `phoneNumber` (E.164) for action_transfer_call; `phoneNumber` and " +
        "`placePrimaryOnHold` for action_add_to_conference; `name`, `description`, `url`, `inputSchema`, `speakOnSend`, " +
        "`speakOnReceive` and `processingMode` for action_external; none for the others. Other keys are passed to the service as they are.",
      wire: "config",
      toWire: (config: Config) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(config)) out[isConfigKey(k) ? CONFIG_WIRE[k] : k] = v;
        return ActionBodySchema.shape.config.parse(out);
      },
      read: (a) => configOf(a.config),
    },
    actionTrigger: {
      doc:
        "How it is set off (current API): `{ type: action_trigger_function_call }` the model decides (the same as unset), or " +
        "`{ type: action_trigger_phrase_based, phraseTriggers: [{ phrase, conditions }] }` when the caller says a phrase " +
        "(not for action_dtmf and action_external).",
      wire: "action_trigger",
      toWire: (t: Trigger) =>
        t.type === "action_trigger_phrase_based"
          ? {
              type: t.type,
              config: {
                phrase_triggers: (t.phraseTriggers ?? []).map((p) => ({ phrase: p.phrase, conditions: p.conditions })),
              },
            }
          : { type: t.type },
      read: (a, recorded) => triggerOf(a.action_trigger, recorded.actionTrigger),
    },
    signatureSecret: {
      doc:
        "For action_external: the secret the service signs its requests to `config.url` with. A credential: secret in the state and " +
        "every output; the service may not echo it, so a value changed outside Pulumi is not seen.",
      wire: "signature_secret",
      secret: true,
      imported: (a) => unmasked(a.config.signature_secret),
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
  refine: (inputs) => typeRules(inputs),
  generationCheck: (gen, _olds, news) => {
    if (gen === "2023") return { failures: refusedOn2023(news) };
    if ((news.type ?? "action_end_conversation") === "action_transfer_call" && news.config && !news.config.phoneNumber)
      return { failures: [inputFailure("config.phoneNumber: action_transfer_call needs it on the current API")] };
    return {};
  },
  ...adoptable({
    input,
    collection: "actions",
    noun: "action",
    adopt: "actionId",
    adoptId: (inputs) => inputs.actionId,
    routes: (client) => client.actions,
    parse: wireBodyOf,
  }),
});
