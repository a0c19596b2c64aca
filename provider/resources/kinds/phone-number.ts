import { tokenOf } from "../../identity.js";
import { z } from "zod";
import { ownerOutput } from "../kit/owner.js";
import {
  ApiGenerationError,
  ApiValidationError,
  E164Schema,
  UuidSchema,
  type PhoneNumber,
  type PhoneNumberUpdate,
} from "../../client/index.js";
import { unseenHolder } from "../../coordination/claims.js";
import { defineKind, type OutputDef } from "../kit/kind.js";
import { refusal } from "../kit/pull.js";
import { ExplainedError } from "../kit/errors.js";

/**
 * The `active` output of every number kind (PhoneNumber, PurchasedNumber, LinkedNumber), declared
 * once. The current API may leave `active` null: only false means cancelled.
 */
export function activeOutput<R extends { active?: boolean | null | undefined }>(): OutputDef<R> {
  return {
    type: "boolean",
    doc: "Whether the number is active (false once cancelled).",
    read: (n) => n.active !== false,
  };
}

/** A number's base name: `line-` and its last four digits (the whole number is not in the URN). */
export function numberBaseName(n: Pick<PhoneNumber, "number">): string {
  return `line-${n.number.replace(/\D/g, "").slice(-4) || "number"}`;
}

/**
 * PhoneNumber: the inbound binding of a number the account owns. numbers/update binds it (create,
 * update) and unbinds it (destroy). It never cancels a number: buying and cancelling belong to
 * PurchasedNumber. Its id is the number's service UUID (0.1.0 used the number itself, which a
 * secret number must never be); reads and deletes address the number by its recorded `number`.
 */
export const phoneNumberKind = defineKind<PhoneNumber, PhoneNumberUpdate>()({
  kind: "PhoneNumber",
  collection: "numbers",
  recover: "rebind",
  pull: {
    name: numberBaseName,
    refuse: (n) =>
      n.active === false
        ? "cancelled: it cannot be bound again"
        : !n.inbound_agent
          ? "not bound to an agent: there is no binding to declare"
          : refusal(E164Schema.safeParse(n.number), "number "),
    adopt: (n) => ({
      args: { number: n.number },
      refs: n.inbound_agent
        ? [{ key: "inboundAgent", collection: "agents", ids: [n.inbound_agent.id], list: false }]
        : [],
    }),
  },
  doc:
    "The inbound binding of a phone number the account owns. Rebinding moves it to another agent in place; " +
    "destroy unbinds it, unless the program declares the same number in another resource (a rename, a swap, " +
    "a move into a component), which then owns the binding. It never cancels.",
  importId: "the number, E.164 (e.g. +15550010001)",
  input: z.object({
    number: E164Schema,
    inboundAgent: UuidSchema,
    cancelOnDelete: z
      .literal(false, {
        error:
          "was removed in 0.2.0: a binding never cancels its number. Buy and cancel numbers with a PurchasedNumber resource " +
          "(its destroy cancels), and remove cancelOnDelete here",
      })
      .optional(),
  }),
  fields: {
    number: {
      boundOnce: true,
      doc: "The number, E.164 (e.g. +15551234567): one the account owns. Changing it replaces.",
      wire: null,
      read: (n) => n.number,
      change: "replaces",
    },
    inboundAgent: {
      doc: "The id of the agent that answers inbound calls.",
      wire: "inbound_agent",
      read: (n) => n.inbound_agent?.id,
    },
    cancelOnDelete: {
      doc: "Only `false` is accepted, so older programs keep working.",
      deprecated:
        "Removed in 0.2.0: a binding never cancels its number. Buy and cancel numbers with a `PurchasedNumber`.",
      wire: null,
      change: "inert",
    },
  },
  // GET /v1/numbers is an extension route: without it, refresh keeps what was recorded.
  extensionReads: true,
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
    gen === "2024"
      ? {
          note:
            "voiceagent:PhoneNumber: the 2024 API cannot unbind a number (numbers/update takes no null): destroying a binding, or " +
            "removing it from the program, leaves the number bound to its agent and only removes it from the stack",
        }
      : {},
  declared: ({ scope, inputs }) => {
    if (inputs.number) scope.host.claims.declare("PhoneNumber", inputs.number);
  },
  create: ({ client, inputs }) => client.numbers.update(inputs.number, inputs.inboundAgent),
  async read({ client, id, recorded }) {
    // `pulumi import` names a number by its E.164 number and records nothing yet.
    const importing = recorded.number === undefined;
    const number = recorded.number ?? (E164Schema.safeParse(id).success ? id : undefined);
    if (!number) return undefined;
    const n = await client.numbers.get(number);
    // A cancelled number is gone for good: it can never be bound again.
    // The current API may leave `active` null: only false means cancelled.
    if (n.active === false) return undefined;
    // A binding with no agent is no binding: imported, it would be recorded without the required
    // inboundAgent (the engine then warns of a provider bug). Owning a number is PurchasedNumber's.
    if (importing && !n.inbound_agent) {
      throw new ExplainedError(
        "this number is bound to no agent, so there is no binding to import, and nothing was recorded. " +
          `To manage the number itself, import it as a PurchasedNumber (\`pulumi import ${tokenOf("PurchasedNumber")} <name> <number>\`); ` +
          "to bind it, declare a PhoneNumber with its inboundAgent and run `pulumi up`",
        { code: "E_NOT_IMPORTABLE", mayHaveActed: false },
      );
    }
    return n;
  },
  update: ({ client, inputs }) => client.numbers.update(inputs.number, inputs.inboundAgent),
  async delete({ scope, client, id, recorded }) {
    if (!recorded.number) return;
    // A rename, a swap, a move into a component, or a pending delete of an interrupted run: the
    // program declares this number in another binding, which owns it now. A PurchasedNumber of
    // the number does not: it owns the purchase, never the binding.
    const claim = scope.host.claims.of("PhoneNumber", recorded.number);
    if (claim.status === "declared") {
      scope.note(`voiceagent:PhoneNumber ${id}: left bound: the program binds this number in another PhoneNumber`);
      return;
    }
    if (claim.status === "unseen") throw unseenHolder("PhoneNumber", claim.flag, "unbind");
    try {
      await client.numbers.update(recorded.number, null);
    } catch (err) {
      if (err instanceof ApiGenerationError) {
        // Said at preview already: nothing can unbind it on this API, so destroy forgets it.
        scope.note(`voiceagent:PhoneNumber ${id}: left bound to its agent and removed from the stack: ${err.summary}`);
        return;
      }
      if (err instanceof ApiValidationError) {
        throw new ExplainedError(
          `this service refuses to unbind the number (inbound_agent: null), so it stays bound to its agent and nothing changed. ` +
            "Set the retain-on-delete resource option on it (`retainOnDelete: true`; Python `retain_on_delete=True`, Go " +
            "`pulumi.RetainOnDelete(true)`) to let Pulumi forget it, or bind it to another agent instead",
          err,
        );
      }
      throw err;
    }
  },
});
