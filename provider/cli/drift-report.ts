import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { redact } from "../client/index.js";
import { isProviderKey, withoutProvider } from "../dynamic/migration.js";
import { kindOfType } from "../identity.js";
import { INPUT_PROPERTIES, KIND_NAMES } from "./kinds.js";
import { splitUrn } from "./state.js";
import { table } from "./output.js";

/** The part of an engine event's step metadata drift reads (events come from the CLI: parsed, not trusted). */
const StepStateSchema = z.looseObject({
  inputs: z.record(z.string(), z.unknown()).nullish(),
  outputs: z.record(z.string(), z.unknown()).nullish(),
});
const StepSchema = z.looseObject({
  op: z.string(),
  urn: z.string(),
  type: z.string(),
  old: StepStateSchema.nullish(),
  new: StepStateSchema.nullish(),
  diffs: z.array(z.string()).nullish(),
  detailedDiff: z.record(z.string(), z.unknown()).nullish(),
});
const EventSchema = z.looseObject({
  resourcePreEvent: z.looseObject({ metadata: StepSchema }).nullish(),
  resOutputsEvent: z.looseObject({ metadata: StepSchema }).nullish(),
});

/** One property that differs: `old` is the stack's state, `new` the live value (secrets masked). */
export const PropertyChangeSchema = z.object({ name: z.string(), old: z.unknown(), new: z.unknown() });
/** A resource whose live object no longer matches the state. */
export const DriftedSchema = z.object({
  urn: z.string(),
  kind: z.string(),
  name: z.string(),
  status: z.enum(["changed", "deleted"]),
  properties: z.array(PropertyChangeSchema),
});
/** What `pulumi up` would do to a resource after the refresh. */
export const PlannedSchema = z.object({
  urn: z.string(),
  kind: z.string(),
  name: z.string(),
  op: z.string(),
  properties: z.array(z.string()),
});
/** What `voiceagent drift --json` prints. */
export const DriftReportSchema = z.object({
  clean: z.boolean(),
  drifted: z.array(DriftedSchema),
  planned: z.array(PlannedSchema),
});
/** The drift report. */
export type DriftReport = z.infer<typeof DriftReportSchema>;

/** The key Pulumi marks a secret value with in state and events. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
/** Operations that change something; everything else (same, read, refresh) does not. */
const CHANGING: ReadonlySet<string> = new Set([
  "create",
  "update",
  "replace",
  "create-replacement",
  "delete",
  "delete-replaced",
  "import",
]);

/** A value with every secret replaced by "[secret]" (and any registered secret redacted). */
export function maskSecrets(value: unknown): unknown {
  if (typeof value === "string") return value === "[secret]" ? value : redact(value);
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === "object") {
    if (SECRET_SIG in value) return "[secret]";
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v)]));
  }
  return value;
}

const ours = (type: string) => kindOfType(type, KIND_NAMES) !== undefined;
const shortKind = (type: string) => kindOfType(type, KIND_NAMES) ?? type;
/** A step's inputs without the serialized provider, secrets masked: masked values compare equal. */
const recordedInputs = (s: z.infer<typeof StepStateSchema> | null | undefined): Record<string, unknown> => {
  return Object.fromEntries(Object.entries(withoutProvider(s?.inputs ?? {})).map(([k, v]) => [k, maskSecrets(v)]));
};

/**
 * What a refresh step compares of one state: the recorded values of the kind's input properties,
 * as the outputs hold them (what the last write or read recorded of the live object), secrets
 * masked. Not the inputs: those are the program's, and a refresh replaces them with everything it
 * read, so a value the service filled in for a property the program leaves to it (an agent's
 * `ivrNavigationMode`) would show as drift after every deploy. A write records what a read of the
 * same object would (kit/derive.ts `outputsOf`), so only a change made outside Pulumi differs.
 */
const recordedOf = (kind: string, s: z.infer<typeof StepStateSchema> | null | undefined): Record<string, unknown> => {
  if (!s?.outputs) return recordedInputs(s);
  const names = new Set(INPUT_PROPERTIES[kind] ?? []);
  return Object.fromEntries(
    Object.entries(withoutProvider(s.outputs))
      .filter(([k]) => names.has(k))
      .map(([k, v]) => [k, maskSecrets(v)]),
  );
};

/**
 * Builds the drift report from the engine events of `pulumi preview --refresh`: each refresh
 * step of one of our resources compares the state's recorded values with the live ones (no `new`
 * state: the object is gone), and each changing step after it is what `up` would do.
 */
export function driftFromEvents(events: readonly unknown[]): DriftReport {
  const drifted: DriftReport["drifted"] = [];
  const planned: DriftReport["planned"] = [];
  for (const raw of events) {
    const e = EventSchema.safeParse(raw);
    if (!e.success) continue;
    const done = e.data.resOutputsEvent?.metadata;
    if (done?.op === "refresh" && ours(done.type)) {
      const base = { urn: done.urn, kind: shortKind(done.type), name: splitUrn(done.urn).name };
      if (!done.new) drifted.push({ ...base, status: "deleted", properties: [] });
      else {
        const before = recordedOf(base.kind, done.old);
        const after = recordedOf(base.kind, done.new);
        const properties = changedKeys(before, after).map((k) => ({ name: k, old: before[k], new: after[k] }));
        if (properties.length) drifted.push({ ...base, status: "changed", properties });
      }
    }
    const step = e.data.resourcePreEvent?.metadata;
    if (step && CHANGING.has(step.op) && ours(step.type)) {
      // Dynamic providers report no per-property diff: compare the inputs when the engine gives none.
      const compared =
        step.op === "update" || step.op.includes("replace")
          ? changedKeys(recordedInputs(step.old), recordedInputs(step.new))
          : [];
      const properties = step.diffs?.length
        ? step.diffs
        : step.detailedDiff
          ? Object.keys(step.detailedDiff)
          : compared;
      planned.push({
        urn: step.urn,
        kind: shortKind(step.type),
        name: splitUrn(step.urn).name,
        op: step.op,
        properties: properties.filter((p) => !isProviderKey(p)),
      });
    }
  }
  return { clean: drifted.length === 0 && planned.length === 0, drifted, planned };
}

/** Keys whose values differ between two property bags, sorted. */
function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.filter((k) => !isDeepStrictEqual(before[k], after[k]));
}

const printable = (v: unknown) => {
  const text = v === undefined ? "(unset)" : JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

/** The drift report as a person reads it. */
export function humanDrift(r: DriftReport): string {
  if (r.clean)
    return "clean: the live objects match the stack's state and the program, pulumi up would change nothing\n";
  const out: string[] = [];
  if (r.drifted.length) {
    out.push(`${r.drifted.length} resource(s) changed outside Pulumi (state → live):`);
    for (const d of r.drifted) {
      if (d.status === "deleted") out.push(`  ${d.kind} ${d.name}: deleted outside Pulumi`);
      else
        for (const p of d.properties)
          out.push(`  ${d.kind} ${d.name}: ${p.name}: ${printable(p.old)} → ${printable(p.new)}`);
    }
  }
  if (r.planned.length) {
    out.push("", "pulumi up would:");
    out.push(
      table(
        ["OP", "KIND", "NAME", "PROPERTIES"],
        r.planned.map((p) => [p.op, p.kind, p.name, p.properties.join(", ")]),
      ).trimEnd(),
    );
  }
  return `${out.join("\n").replace(/^\n+/, "")}\n`;
}
