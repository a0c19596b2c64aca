import { z } from "zod";
import {
  ACCOUNT_CONNECTION_TYPES,
  AccountConnectionCreateSchema,
  AccountConnectionUpdateSchema,
  E164Schema,
  UuidSchema,
  type AccountConnection,
} from "../../schemas/index.js";
import type { VoiceAgentClient } from "../../client/index.js";
import { inputFailure, type CheckFailure } from "../kit/check.js";
import { needsCurrentApi } from "../kit/current-only.js";
import { defineKind, type Props } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";
import { present, refusal, type PulledSecret } from "../kit/pull.js";
import { ExplainedError } from "../kit/errors.js";

// AccountConnection: the team's own OpenAI or Twilio account, an object of the current API (2024),
// one type or the other (a typed union). A Twilio connection's steering pool changes through the
// service's own two routes (add_to_steering_pool, remove_from_steering_pool): account_connections/
// update takes only the credentials. The OpenAI key and the Twilio auth token are secret by nature.

/** The types a program may declare; one read back that is not here shows as drift. */
const TYPES = ACCOUNT_CONNECTION_TYPES;
const OPENAI = "account_connection_openai";
const TWILIO = "account_connection_twilio";

const nonEmpty = () => z.string().min(1, { error: "must not be empty" });
const input = z.object({
  type: z.enum(TYPES),
  openaiApiKey: nonEmpty().optional(),
  twilioAccountSid: nonEmpty().optional(),
  twilioAuthToken: nonEmpty().optional(),
  steeringPool: z.array(E164Schema).optional(),
  accountSupportsAnyCallerId: z.boolean().optional(),
  accountConnectionId: UuidSchema.optional(),
});
type Inputs = Partial<z.output<typeof input>>;
type ConnectionField =
  | "openaiApiKey"
  | "twilioAccountSid"
  | "twilioAuthToken"
  | "steeringPool"
  | "accountSupportsAnyCallerId";

/** Each type's own fields: the ones it needs, and the ones it may have. */
const TYPE_FIELDS: Record<(typeof TYPES)[number], { needs: ConnectionField[]; may: ConnectionField[] }> = {
  [OPENAI]: { needs: ["openaiApiKey"], may: [] },
  [TWILIO]: { needs: ["twilioAccountSid", "twilioAuthToken"], may: ["steeringPool", "accountSupportsAnyCallerId"] },
};
const ALL_TYPE_FIELDS = Object.values(TYPE_FIELDS).flatMap((t) => [...t.needs, ...t.may]);

/** The type's missing fields and the other type's, said at preview (naming fields, never values). */
function typeFields(inputs: Inputs): CheckFailure[] {
  if (inputs.type === undefined) return [];
  const { needs, may } = TYPE_FIELDS[inputs.type];
  const failures: CheckFailure[] = [];
  for (const f of needs)
    if (inputs[f] === undefined) failures.push(inputFailure(`${f} is required for an ${inputs.type}`));
  for (const f of ALL_TYPE_FIELDS)
    if (inputs[f] !== undefined && !needs.includes(f) && !may.includes(f))
      failures.push(
        inputFailure(`${f} is not a field of an ${inputs.type}: remove it, or choose the type that has it`),
      );
  return failures;
}

/** The connection's fields under their wire names, flattened out of `credentials` (the bodies below nest them). */
interface ConnectionWire {
  type: string;
  openai_api_key: string;
  twilio_account_sid: string;
  twilio_auth_token: string;
  steering_pool: string[];
  account_supports_any_caller_id: boolean;
}

/** The credentials of a flat body, nested as the service takes them. */
function credentials(flat: Props): Props {
  return flat.type === OPENAI
    ? { openai_api_key: flat.openai_api_key }
    : { twilio_account_sid: flat.twilio_account_sid, twilio_auth_token: flat.twilio_auth_token };
}

/**
 * Makes the service's steering pool the program's: adds the numbers missing, removes the others
 * (each route changes nothing when repeated), then reads the connection back.
 */
async function applyPool(
  client: VoiceAgentClient,
  live: AccountConnection,
  wanted: readonly string[] | undefined,
): Promise<AccountConnection> {
  if (wanted === undefined || live.type !== TWILIO) return live;
  const held = live.steering_pool ?? [];
  const add = wanted.filter((n) => !held.includes(n));
  const remove = held.filter((n) => !wanted.includes(n));
  for (const n of add) await client.account_connections.addToSteeringPool(live.id, n);
  for (const n of remove) await client.account_connections.removeFromSteeringPool(live.id, n);
  return add.length + remove.length ? client.account_connections.get(live.id) : live;
}

/**
 * The create-only fields (those whose change replaces) on which the program differs from an
 * existing connection it adopts: its type, and whether it may present any caller id where both
 * say (unset in the program, the service's value stands; not told by the service, nothing shows
 * a difference).
 */
function createOnlyDiffers(live: AccountConnection, inputs: Inputs): string[] {
  if (live.type !== inputs.type) return ["type"];
  const wanted = inputs.accountSupportsAnyCallerId;
  const held = live.account_supports_any_caller_id;
  return wanted !== undefined && typeof held === "boolean" && held !== wanted ? ["accountSupportsAnyCallerId"] : [];
}

/** Sets an existing connection's credentials, then its steering pool. */
async function updateConnection(client: VoiceAgentClient, id: string, flat: Props, pool: string[] | undefined) {
  const body = AccountConnectionUpdateSchema.parse({ type: flat.type, credentials: credentials(flat) });
  return applyPool(client, await client.account_connections.update(id, body), pool);
}

/** AccountConnection: account_connections/create, /update, the steering-pool routes and GET /v1/account_connections. */
export const accountConnectionKind = defineKind<AccountConnection, ConnectionWire>()({
  kind: "AccountConnection",
  collection: "account_connections",
  // Its create sends a secret: recover adopts it by its adopt input, never by the body sent.
  recover: "adopt-only",
  pull: {
    name: (c) =>
      c.type === TWILIO
        ? `twilio-${(c.credentials.twilio_account_sid ?? "").slice(-6).toLowerCase() || "account"}`
        : "openai",
    refuse: (c) => refusal(input.safeParse({ type: c.type })),
    // The OpenAI key and the Twilio auth token are never pulled as values: the user supplies them
    // as secret config (a service may not even echo them).
    adopt: (c) => {
      const twilio = c.type === TWILIO;
      const secrets: PulledSecret[] = twilio
        ? [
            {
              key: "twilioAuthToken",
              what: `the auth token of Twilio account ${c.credentials.twilio_account_sid ?? c.id}`,
            },
          ]
        : [{ key: "openaiApiKey", what: `the OpenAI API key of account connection ${c.id}` }];
      return {
        args: {
          accountConnectionId: c.id,
          type: c.type,
          ...(twilio
            ? {
                ...present({
                  twilioAccountSid: c.credentials.twilio_account_sid,
                  accountSupportsAnyCallerId: c.account_supports_any_caller_id,
                }),
                ...(c.steering_pool ? { steeringPool: c.steering_pool } : {}),
              }
            : {}),
        },
        refs: [],
        secrets,
      };
    },
  },
  doc:
    "An account connection of the current API (2024): the team's own OpenAI account (type account_connection_openai, " +
    "openaiApiKey) or Twilio account (type account_connection_twilio, twilioAccountSid and twilioAuthToken, with its " +
    "steeringPool and accountSupportsAnyCallerId), which agents and linked numbers refer to by id. The OpenAI key " +
    "and the Twilio auth token are always secret. Destroy forgets it (the service has no delete). On the interface's " +
    "API (2023) it fails at preview.",
  importId: "its id (a UUID)",
  input,
  fields: {
    type: {
      doc: "The type: account_connection_openai or account_connection_twilio. Changing it replaces (the service cannot change it).",
      wire: "type",
      read: (c) => c.type,
      change: "replaces",
    },
    // Credentials: secret everywhere, and write-only (kind.ts `Answer`): a service may echo them,
    // mask them or leave them out, so each reads back as the value sent, and refresh shows no drift.
    openaiApiKey: {
      doc:
        "The OpenAI API key (account_connection_openai), always secret. Write-only: the service may mask it or leave " +
        "it out of its answers, so it is compared with the value last sent, and a key changed outside Pulumi is not " +
        "seen (set it here to change it).",
      wire: "openai_api_key",
      imported: (c) => c.credentials.openai_api_key ?? undefined,
      secret: true,
    },
    twilioAccountSid: {
      doc: "The Twilio account SID (account_connection_twilio).",
      wire: "twilio_account_sid",
      read: (c) => c.credentials.twilio_account_sid ?? undefined,
    },
    twilioAuthToken: {
      doc:
        "The Twilio auth token (account_connection_twilio), always secret. Write-only: the service may mask it or " +
        "leave it out of its answers, so it is compared with the value last sent, and a token changed outside Pulumi " +
        "is not seen (set it here to change it).",
      wire: "twilio_auth_token",
      imported: (c) => c.credentials.twilio_auth_token ?? undefined,
      secret: true,
    },
    steeringPool: {
      doc:
        "Numbers of the Twilio account (E.164) that place outbound calls in turn (account_connection_twilio; order does " +
        "not matter). Changes are applied with the service's add_to_steering_pool and remove_from_steering_pool. " +
        "Unset: the service keeps the pool it holds.",
      wire: "steering_pool",
      read: (c) => c.steering_pool ?? undefined,
      compare: "set",
      unset: "service-decides",
    },
    accountSupportsAnyCallerId: {
      doc:
        "Whether the Twilio account may present any caller id (account_connection_twilio). The service cannot change " +
        "it in place: changing it replaces. Unset: the service decides.",
      wire: "account_supports_any_caller_id",
      read: (c) => c.account_supports_any_caller_id ?? undefined,
      unset: "service-decides",
      change: "replaces",
    },
    accountConnectionId: {
      doc:
        "Adopt an existing account connection instead of creating one: its credentials and steering pool are set " +
        "to these arguments on the first `up`. Changing it replaces.",
      wire: null,
      read: (_c, recorded) => recorded.accountConnectionId,
      compare: { live: (_recorded, id) => id },
      change: "replaces",
    },
  },
  adopt: "accountConnectionId",
  outputs: { userId: ownerOutput() },
  refine: typeFields,
  generationCheck: (gen) => needsCurrentApi("AccountConnection", gen),
  async create({ client, inputs, bodies }) {
    const flat = bodies.create;
    if (inputs.accountConnectionId) {
      const live = await client.account_connections.get(inputs.accountConnectionId);
      // What only a create sets must already be as declared: refused before the credentials or the
      // pool are written, as the Agent refuses llmTemperature (else the write lands, then every
      // run fails on the field it cannot change).
      const differs = createOnlyDiffers(live, inputs);
      if (differs.length)
        throw new ExplainedError(
          `${differs.join(", ")}: account connection ${inputs.accountConnectionId} holds another value, and the service ` +
            "cannot change it (only its create sets it); nothing was sent: declare the connection's own value, or leave " +
            `${differs.length > 1 ? "them" : "it"} unset where allowed, or drop accountConnectionId to create a new connection`,
          { code: "E_CONFLICT", mayHaveActed: false },
        );
      return updateConnection(client, inputs.accountConnectionId, flat, inputs.steeringPool);
    }
    const { type, openai_api_key, twilio_account_sid, twilio_auth_token, ...twilio } = flat;
    const body = AccountConnectionCreateSchema.parse({
      type,
      credentials: credentials(flat),
      ...(type === TWILIO ? twilio : {}),
    });
    return client.account_connections.create(body);
  },
  read: ({ client, id }) => client.account_connections.get(id),
  update: ({ client, id, inputs, bodies }) => updateConnection(client, id, bodies.update, inputs.steeringPool),
  forgetNote: "the service has no delete for account connections; it is removed from the stack and left on the service",
});
