import { z } from "zod";
import {
  ApiNotFoundError,
  matchesSent,
  E164Schema,
  LinkedNumberSchema,
  PhoneNumberLinkSchema,
  UuidSchema,
  type LinkedNumber,
  type LinkedNumberChange,
  type PhoneNumberLink,
  type VoiceAgentClient,
} from "../../client/index.js";
import { tokenOf } from "../../identity.js";
import { inputFailure } from "../kit/check.js";
import { defineKind } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";
import { present, refusal } from "../kit/pull.js";
import { activeOutput, numberBaseName } from "./phone-number.js";
import { ExplainedError } from "../kit/errors.js";

/** What destroy does, said at preview and by destroy itself. */
const LEFT_LINKED =
  "the service has no unlink (SDK 0.0.48 has no such route, and numbers/cancel would cancel the number itself), " +
  "so destroying a LinkedNumber, or removing it from the program, leaves the number linked and bound to its agent " +
  "and only removes it from the stack";

/** The number if the account holds it, else undefined (a 404 of the direct read). */
async function held(client: VoiceAgentClient, number: string): Promise<LinkedNumber | undefined> {
  try {
    return await client.linkedNumbers.get(number);
  } catch (err) {
    if (err instanceof ApiNotFoundError) return undefined;
    throw err;
  }
}

/** What numbers/update must send for the live number to be what the program declares (empty: nothing). */
function changeFor(
  live: Pick<LinkedNumber, "inbound_agent" | "outbound_only"> | undefined,
  inputs: { inboundAgent?: string | undefined; outboundOnly?: boolean | undefined },
): LinkedNumberChange {
  return {
    ...(inputs.inboundAgent !== undefined && inputs.inboundAgent !== live?.inbound_agent
      ? { inbound_agent: inputs.inboundAgent }
      : {}),
    ...(inputs.outboundOnly !== undefined && inputs.outboundOnly !== (live?.outbound_only ?? undefined)
      ? { outbound_only: inputs.outboundOnly }
      : {}),
  };
}

/**
 * LinkedNumber: a number of the team's own Twilio account, linked to the service through one of
 * its Twilio account connections (numbers/link, current API only), and its inbound agent.
 *
 * Create links it exactly once: a lost answer is settled by the account's numbers list, never by
 * linking again. A number the account already holds through the same connection (a resource moved
 * to another name or provider, whose old resource is deleted after the new one is made; a link
 * whose answer an interrupted run never recorded) is taken over, never linked twice. Destroy only
 * forgets: nothing unlinks, so no move between resources or providers can unlink a number or
 * change its agent.
 */
export const linkedNumberKind = defineKind<LinkedNumber, PhoneNumberLink>()({
  kind: "LinkedNumber",
  collection: "numbers",
  // The account's numbers list carries the linked numbers with the others: those linked through
  // an account connection are pulled as LinkedNumber (PhoneNumber takes the rest). The list's
  // item is read again here, which takes a reference embedded or by id alike.
  pull: {
    takes: (live) => Boolean(LinkedNumberSchema.safeParse(live).data?.telephony_account_connection),
    name: numberBaseName,
    refuse: (live) => {
      const n = LinkedNumberSchema.parse(live);
      return n.active === false
        ? "cancelled: it cannot be linked again"
        : refusal(E164Schema.safeParse(n.number), "number ");
    },
    adopt: (live) => {
      const n = LinkedNumberSchema.parse(live);
      return {
        args: { number: n.number, ...present({ outboundOnly: n.outbound_only }) },
        refs: [
          ...(n.telephony_account_connection
            ? [
                {
                  key: "telephonyAccountConnection",
                  collection: "account_connections" as const,
                  ids: [n.telephony_account_connection],
                  list: false,
                },
              ]
            : []),
          ...(n.inbound_agent
            ? [{ key: "inboundAgent", collection: "agents" as const, ids: [n.inbound_agent], list: false }]
            : []),
        ],
      };
    },
  },
  recover: "number",
  // A later run settles a lost link by the number and its connection (kit/unsettled.ts): the list
  // names the number `number` where the link sent `phone_number`.
  unsettledMatch: (item, body) => {
    const n = z.object({ number: z.string(), telephony_account_connection: z.unknown() }).safeParse(item);
    const sent = z.object({ phone_number: z.string(), telephony_account_connection: z.unknown() }).safeParse(body);
    return (
      n.success &&
      sent.success &&
      n.data.number === sent.data.phone_number &&
      matchesSent(sent.data.telephony_account_connection, n.data.telephony_account_connection)
    );
  },
  doc:
    "A number of the team's own Twilio account, linked to the service through a Twilio account connection " +
    "(numbers/link; the current API only), and the agent that answers it. Create links it exactly once, and takes " +
    "over a number the account already holds through the same connection (a resource renamed or moved to another " +
    "provider) instead of linking it again. **Destroy leaves the number linked**: the service has no unlink, so " +
    "destroy only removes it from the stack (numbers/cancel, which would cancel the number itself, is never sent).",
  importId: "the number, E.164 (e.g. +15550010001)",
  input: z.object({
    number: E164Schema,
    telephonyAccountConnection: UuidSchema,
    outboundOnly: z.boolean().optional(),
    inboundAgent: UuidSchema.optional(),
  }),
  fields: {
    number: {
      boundOnce: true,
      doc: "The number to link, E.164 (e.g. +15551234567): one of the team's Twilio account. Changing it replaces (the old number stays linked).",
      wire: "phone_number",
      read: (n) => n.number,
      change: "replaces",
    },
    telephonyAccountConnection: {
      doc:
        "The id of the Twilio account connection (an `AccountConnection`) whose account owns the number. " +
        "Only its id is read and recorded, never its credentials. The service cannot change it in place: changing it replaces.",
      wire: "telephony_account_connection",
      read: (n) => n.telephony_account_connection ?? undefined,
      change: "replaces",
    },
    outboundOnly: {
      doc: "Whether the number only places calls (no inbound agent answers). Unset: as the service holds it.",
      wire: "outbound_only",
      read: (n) => n.outbound_only ?? undefined,
      unset: "service-decides",
    },
    inboundAgent: {
      doc:
        "The id of the agent that answers inbound calls; changed in place (numbers/update). Unset: as the service " +
        "holds it (the current API cannot unbind a number).",
      wire: "inbound_agent",
      read: (n) => n.inbound_agent ?? undefined,
      unset: "service-decides",
    },
  },
  outputs: {
    active: activeOutput(),
    numberId: {
      type: "string",
      doc: "The number's UUID on the service (also the resource's id).",
      read: (n) => n.id,
      fixed: true,
    },
    userId: ownerOutput(),
  },
  generationCheck: (gen) =>
    gen === "2023"
      ? {
          failures: [
            inputFailure(
              "voiceagent:LinkedNumber needs the current API (2024): the 2023 interface has no numbers/link. " +
                "Set voiceagent:api to 2024 if the service speaks it, or bind a number the account owns with a PhoneNumber",
            ),
          ],
        }
      : { note: `voiceagent:LinkedNumber: ${LEFT_LINKED}` },
  async create({ scope, client, inputs, bodies }) {
    const live = await held(client, inputs.number);
    if (!live) return client.linkedNumbers.link(PhoneNumberLinkSchema.parse(bodies.create));
    // The account holds it already. Taken over only when linked through the connection the
    // program names: a number the service sold, or one of another connection, is not this link.
    if (live.active === false)
      throw new ExplainedError(
        "number was cancelled on the service and cannot be linked again; nothing was linked or changed",
        { code: "E_CONFLICT", mayHaveActed: false },
      );
    if (live.telephony_account_connection !== inputs.telephonyAccountConnection) {
      throw new ExplainedError(
        "number is already held by the account, but not linked through telephonyAccountConnection (a number the service sold, " +
          "or one linked through another connection); nothing was linked or changed. Give the connection it is linked through, " +
          `or manage it with a PhoneNumber (its binding) or a PurchasedNumber (\`pulumi import ${tokenOf("PurchasedNumber")} <name> <number>\`)`,
        { code: "E_CONFLICT", mayHaveActed: false },
      );
    }
    scope.note(
      `voiceagent:LinkedNumber ${live.id}: already linked through this connection (a resource renamed or moved, or a link ` +
        "whose answer was never recorded): taken over, not linked again",
    );
    const change = changeFor(live, inputs);
    return Object.keys(change).length ? client.linkedNumbers.update(live.number, change) : live;
  },
  async read({ client, id, recorded }) {
    // `pulumi import` names a number by its E.164 number and records nothing yet.
    const importing = recorded.number === undefined;
    const number = recorded.number ?? (E164Schema.safeParse(id).success ? id : undefined);
    if (!number) return undefined;
    const n = await client.linkedNumbers.get(number);
    if (n.active === false) return undefined;
    if (importing && !n.telephony_account_connection) {
      throw new ExplainedError(
        "this number was not linked through an account connection (the service sold it), so there is no link to import, " +
          `and nothing was recorded. Import it as a PurchasedNumber (\`pulumi import ${tokenOf("PurchasedNumber")} <name> <number>\`), ` +
          "or bind it with a PhoneNumber",
        { code: "E_NOT_IMPORTABLE", mayHaveActed: false },
      );
    }
    return n;
  },
  // Called when the diff found a change, or to finish a partial create: every declared field is
  // sent (numbers/update is safe to repeat), so drift of the other one is put right too; with
  // none declared, the number is read back.
  async update({ client, inputs }) {
    const change = changeFor(undefined, inputs);
    if (!Object.keys(change).length) return client.linkedNumbers.get(inputs.number);
    return client.linkedNumbers.update(inputs.number, change);
  },
  forgetNote: LEFT_LINKED,
});
