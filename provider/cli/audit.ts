import { z } from "zod";
import { gapOf, type PhoneNumber } from "../client/index.js";
import type { Account } from "./account.js";
import { ACCOUNT_COLLECTIONS, AccountCollectionSchema, pullerFor, SINGULAR, type AccountCollection } from "./kinds.js";
import type { ManagedRef } from "./state.js";

/** What audit can find. */
export const FINDING_KINDS = [
  "unmanaged",
  "missing",
  "unknown",
  "unreadable",
  "bound-to-unmanaged-agent",
  "managed-twice",
] as const;

/** One thing audit found: machine-readable, and worded for the table. */
export const FindingSchema = z.object({
  finding: z.enum(FINDING_KINDS),
  collection: AccountCollectionSchema,
  /** The object's id on the service; for a missing 0.1.0 number binding, its E.164 number. */
  id: z.string(),
  /** A short readable label: an agent's first prompt words, a voice's name, a number's last digits. */
  label: z.string(),
  detail: z.string(),
  /** The URNs that manage it, for missing and managed-twice. */
  urns: z.array(z.string()),
});
/** One audit finding. */
export type Finding = z.infer<typeof FindingSchema>;

/** What `voiceagent audit --json` prints. */
export const AuditReportSchema = z.object({
  clean: z.boolean(),
  findings: z.array(FindingSchema),
  /** Objects read per collection, and the resources of the given stacks that manage account objects. */
  counts: z.object({ account: z.record(z.string(), z.number()), managed: z.number() }),
  stacks: z.array(z.string()),
});
/** The audit report. */
export type AuditReport = z.infer<typeof AuditReportSchema>;

/** A number's label: its last four digits (the whole number stays out of CI logs). */
export const numberLabel = (n: string) => `number ending ${n.replace(/\D/g, "").slice(-4)}`;

/**
 * Compares an account with what the given stacks manage. Objects are matched by id (numbers by
 * their UUID or, for 0.1.0 states, their E.164 number), never by output values, which may be
 * secret. Numbers that are unbound (inventory, not configuration) are not reported. A managed
 * object is "missing" only from a complete listing (client/listing.ts); from one that could not
 * be read whole it is "unknown", and each item that could not be read is reported "unreadable".
 */
export function classify(
  account: Account,
  refs: readonly ManagedRef[],
  only: readonly AccountCollection[] = ACCOUNT_COLLECTIONS,
): AuditReport {
  const want = new Set(only);
  const findings: Finding[] = [];
  const managed = new Map<AccountCollection, Set<string>>(ACCOUNT_COLLECTIONS.map((c) => [c, new Set()]));
  for (const r of refs) managed.get(r.collection)?.add(r.id);
  const isManaged = (c: AccountCollection, ...keys: string[]) => keys.some((k) => managed.get(c)?.has(k));
  const numberByKey = new Map<string, PhoneNumber>();
  for (const n of account.numbers) numberByKey.set(n.id, n).set(n.number, n);
  const labels = labelsOf(account);

  for (const c of only) {
    if (c === "numbers") continue;
    for (const o of account[c]) {
      if (!isManaged(c, o.id)) {
        findings.push({
          finding: "unmanaged",
          collection: c,
          id: o.id,
          label: labels.get(o.id) ?? "",
          urns: [],
          detail: `no given stack manages this ${SINGULAR[c]}: made outside Pulumi, or orphaned by an interrupted run`,
        });
      }
    }
  }
  if (want.has("numbers")) {
    for (const n of account.numbers) {
      const agent = n.inbound_agent;
      // A linked number (the current API: linked through an account connection) is declared as a
      // LinkedNumber whether or not an agent answers it; another number only as its binding.
      const linked = Boolean(n.telephony_account_connection);
      if (n.active === false || (!agent && !linked)) continue;
      const label = numberLabel(n.number);
      if (agent && !isManaged("agents", agent.id)) {
        findings.push({
          finding: "bound-to-unmanaged-agent",
          collection: "numbers",
          id: n.id,
          label,
          urns: [],
          detail: `answered by agent ${agent.id}, which no given stack manages`,
        });
      } else if (!isManaged("numbers", n.id, n.number)) {
        findings.push({
          finding: "unmanaged",
          collection: "numbers",
          id: n.id,
          label,
          urns: [],
          detail: linked
            ? "its link (a LinkedNumber) is not managed by any given stack"
            : "its binding is not managed by any given stack",
        });
      }
    }
  }

  for (const c of only) {
    for (const u of account.gaps[c]?.unreadable ?? []) {
      findings.push({
        finding: "unreadable",
        collection: c,
        id: u.id ?? "",
        label: "",
        urns: [],
        detail: `the service lists this ${SINGULAR[c]}, but it could not be read (${u.why}): nothing about it is known`,
      });
    }
  }
  const unreadableIds = new Set(only.flatMap((c) => (account.gaps[c]?.unreadable ?? []).flatMap((u) => u.id ?? [])));

  const exists = (r: ManagedRef) => {
    if (r.collection !== "numbers") return account[r.collection].some((o) => o.id === r.id);
    // The current API may leave `active` null: only false means cancelled.
    const n = numberByKey.get(r.id);
    return n !== undefined && n.active !== false;
  };
  const byObject = new Map<string, ManagedRef[]>();
  for (const r of refs) {
    if (!want.has(r.collection)) continue;
    // Listed, though unreadable: reported as such above, never as missing.
    if (unreadableIds.has(r.id)) continue;
    if (!exists(r)) {
      const label = r.id.startsWith("+") ? numberLabel(r.id) : `${r.name} (${r.kind})`;
      // An unreadable item showing another id is not this object; a number kept by its E.164
      // (0.1.0 states) could be any unreadable one.
      const listing = account.gaps[r.collection];
      const others = (listing?.unreadable ?? []).flatMap((u) => (u.id && !r.id.startsWith("+") ? [u.id] : []));
      const gap = listing ? gapOf(listing, new Set(others)) : undefined;
      if (gap) {
        findings.push({
          finding: "unknown",
          collection: r.collection,
          id: r.id,
          label,
          urns: [r.urn],
          detail:
            `managed by ${r.stack} as ${r.name}, and not among what the list could read (${gap}): whether it still ` +
            `exists is unknown; run audit again once the service lists its ${r.collection} whole`,
        });
        continue;
      }
      findings.push({
        finding: "missing",
        collection: r.collection,
        id: r.id,
        label,
        urns: [r.urn],
        detail: `managed by ${r.stack} as ${r.name}, but gone from the account: deleted or cancelled outside Pulumi`,
      });
      continue;
    }
    const key = `${r.kind}:${r.collection === "numbers" ? (numberByKey.get(r.id)?.id ?? r.id) : r.id}`;
    byObject.set(key, [...(byObject.get(key) ?? []), r]);
  }
  for (const group of byObject.values()) {
    const first = group[0];
    if (!first || group.length < 2) continue;
    const id = first.collection === "numbers" ? (numberByKey.get(first.id)?.id ?? first.id) : first.id;
    const label =
      first.collection === "numbers"
        ? numberLabel(numberByKey.get(first.id)?.number ?? first.id)
        : (labels.get(id) ?? "");
    findings.push({
      finding: "managed-twice",
      collection: first.collection,
      id,
      label,
      urns: group.map((r) => r.urn),
      detail: `managed by ${group.length} resources (${group.map((r) => `${r.stack}:${r.name}`).join(", ")}): each up overwrites the other`,
    });
  }

  return {
    clean: findings.length === 0,
    findings: sortFindings(findings),
    counts: {
      account: Object.fromEntries(only.map((c) => [c, account[c].length])),
      managed: refs.filter((r) => want.has(r.collection)).length,
    },
    stacks: [...new Set(refs.map((r) => r.stack))].sort(),
  };
}

function labelsOf(account: Account): Map<string, string> {
  // Each object's readable name as `pull` would give it (its kind's `pull`), numbers aside.
  return new Map<string, string>(
    ACCOUNT_COLLECTIONS.filter((c) => c !== "numbers").flatMap((c) =>
      account[c].map((o: { id: string }) => [o.id, pullerFor(c, o).pull.name(o)] as const),
    ),
  );
}

function sortFindings(fs: Finding[]): Finding[] {
  const rank = (f: Finding) => FINDING_KINDS.indexOf(f.finding) * 10 + ACCOUNT_COLLECTIONS.indexOf(f.collection);
  return [...fs].sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
