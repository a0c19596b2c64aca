import { z } from "zod";
import { registerSecret } from "../../client/errors.js";
import { isMaskedCredential } from "../../schemas/secrets.js";
import { type Answer, answerOf, type Bodies, type Change, type KindDef, type Props, type Unset } from "./kind.js";
import { containsUnknown } from "./unknown.js";

// What the kit derives from a kind's one declaration. The fields are walked as entries, which loses
// their per-property types; each result is parsed (bodies) or is plain JSON (outputs, diffs).

/** A field with its types erased, as the walkers see it (kind.ts `Field` checked each one). */
interface AnyField {
  wire: string | null;
  toWire?: ((value: unknown) => unknown) | undefined;
  read?: ((live: unknown, recorded: Props) => unknown) | undefined;
  change?: Change;
  unset?: Unset;
  compare?: "value" | "set" | { live: (recorded: Props, id: string) => unknown };
  secret?: true;
  answer?: Answer;
  imported?: ((live: unknown) => unknown) | undefined;
  emptyIsUnset?: true;
}

/** Left unset, the service decides: whatever it holds is no difference. */
const serviceDecides = (f: AnyField) => f.unset === "service-decides" || f.unset === "service-assigns";

function entries<S extends z.ZodRawShape, R extends { id: string }, W>(def: KindDef<S, R, W>): [string, AnyField][] {
  // Erasing the per-property types of a declaration the compiler has already checked.
  return Object.entries(def.fields) as [string, AnyField][];
}

const isUnset = (f: AnyField, v: unknown) => v === undefined || v === null || (f.emptyIsUnset === true && v === "");

/**
 * The request body for `inputs`: each sent property under its wire name, converted. A create
 * leaves unset properties out; an update sends `null` for the clearable ones, so the service
 * forgets what the program no longer says. The kind parses it with the endpoint's body schema.
 */
export function bodyOf<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  inputs: Props,
  mode: "create" | "update",
): Props {
  const body: Props = {};
  for (const [prop, f] of entries(def)) {
    if (f.wire === null) continue;
    const value = inputs[prop];
    if (value === undefined || value === null || (f.emptyIsUnset && value === "")) {
      if (mode === "update" && f.unset === "clear") body[f.wire] = null;
      continue;
    }
    body[f.wire] = f.toWire ? f.toWire(value) : value;
  }
  return body;
}

/** Both bodies for `inputs`; a secret field's value is registered so no error of the client can show it. */
export function bodiesOf<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  inputs: Props,
): Bodies {
  // A service may quote what it was sent in its refusal (a key it finds invalid).
  for (const [prop, f] of entries(def)) {
    const value = inputs[prop];
    if (f.secret && typeof value === "string") registerSecret(value);
  }
  return { create: bodyOf(def, inputs, "create"), update: bodyOf(def, inputs, "update") };
}

/**
 * The outputs of a live object: every input property read back (a set keeps the program's order
 * when it is the same set) and the kind's own outputs. Nothing copied from another object. A
 * write-only property (a credential) is never read from the object, whatever the service says
 * back (masked, left out, or the value): its output is the value sent, `recorded`; only an import
 * (nothing recorded) takes the service's echo of it (`imported`), unless masked.
 */
export function outputsOf<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  live: R,
  recorded: Props,
): Props {
  const out: Props = {};
  for (const [prop, f] of entries(def)) {
    if (f.wire !== null && answerOf(f) === "write-only") {
      if (recorded[prop] !== undefined && recorded[prop] !== null) out[prop] = recorded[prop];
      else if (Object.keys(recorded).length === 0 && f.imported) {
        // Nothing recorded: an import or a `.get()`. The service's echo is all there is; a masked
        // one (`****abcd`) is no value, so the import leaves it for the program to give.
        const echoed = f.imported(live);
        if (typeof echoed === "string" && echoed !== "" && !isMaskedCredential(echoed)) out[prop] = echoed;
      }
      continue;
    }
    if (!f.read) continue;
    let value = f.read(live, recorded);
    const wanted = recorded[prop];
    if (f.compare === "set" && Array.isArray(value) && Array.isArray(wanted) && sameSet(value, wanted)) value = wanted;
    if (f.emptyIsUnset && value === "") value = undefined;
    if (value !== undefined && value !== null) out[prop] = value;
  }
  for (const [name, o] of Object.entries(def.outputs)) {
    const value = o.read(live);
    if (value !== undefined && value !== null) out[name] = value;
  }
  return out;
}

/** Recorded outputs with the program's values of the properties the service never sees (nothing was sent). */
export function withLocalInputs<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  state: Props,
  inputs: Props,
): Props {
  const out: Props = { ...state };
  for (const [prop, f] of entries(def)) {
    if (f.wire !== null || f.change === "inert") continue;
    if (inputs[prop] === undefined) delete out[prop];
    else out[prop] = inputs[prop];
  }
  return out;
}

/** The inputs a refresh records: the outputs without the kind's output-only properties. */
export function inputsOf<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  outputs: Props,
): Props {
  return Object.fromEntries(Object.entries(outputs).filter(([k]) => !(k in def.outputs)));
}

/**
 * The sent properties whose live value differs from what was asked (a service that dropped them).
 * A write-only one is never among them: what the service says back for it is no evidence.
 */
export function notKept<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  outputs: Props,
  inputs: Props,
): string[] {
  return entries(def)
    .filter(
      ([prop, f]) =>
        f.wire !== null &&
        answerOf(f) !== "write-only" &&
        !(serviceDecides(f) && inputs[prop] === undefined) &&
        !same(f, outputs[prop], inputs[prop]),
    )
    .map(([prop]) => prop);
}

/** Wire field name → property name, for naming properties in the service's 422s. */
export function propertyNames<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
): Record<string, string> {
  return Object.fromEntries(entries(def).flatMap(([prop, f]) => (f.wire === null ? [] : [[f.wire, prop]])));
}

/** The result of comparing recorded state with the program's inputs. */
export interface FieldDiff {
  changed: string[];
  replaces: string[];
}

/**
 * Compares recorded state (what create/update/read returned) with the program's inputs, property
 * by property: defaults filled from the schema, sets unordered, "" equal to unset where declared.
 * A property the program sets is compared with the service's value where the kind says how to
 * find it (`live`), not with the echo recorded. A value unknown at preview counts as changed, so
 * preview shows a possible update or replacement. `id` is the object's.
 */
export function diffOf<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  olds: Props,
  news: Props,
  id = "",
): FieldDiff {
  // Parsed only for a field compared by its live value: the engine diffs every resource after its
  // refresh read, and most kinds have no such field.
  let parsed: Partial<z.output<z.ZodObject<S>>> | undefined;
  const recorded = () => {
    parsed ??= partialInputs(def, olds);
    return parsed;
  };
  const changed = entries(def).filter(([prop, f]) => {
    const wanted = news[prop];
    if (f.change === "inert" || (serviceDecides(f) && wanted === undefined)) return false;
    if (containsUnknown(wanted)) return true;
    const live = wanted !== undefined && typeof f.compare === "object" ? f.compare.live(recorded(), id) : undefined;
    return !same(f, withDefault(def, prop, live ?? olds[prop]), withDefault(def, prop, wanted));
  });
  return {
    changed: changed.map(([p]) => p),
    replaces: changed.filter(([, f]) => f.change === "replaces").map(([p]) => p),
  };
}

function withDefault<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  prop: string,
  value: unknown,
): unknown {
  if (value !== undefined) return value;
  const schema = def.input.shape[prop];
  if (!schema) return undefined;
  const filled = z.safeParse(schema, undefined);
  return filled.success ? filled.data : undefined;
}

function same(f: AnyField, a: unknown, b: unknown): boolean {
  const x = isUnset(f, a) ? null : a;
  const y = isUnset(f, b) ? null : b;
  if (f.compare === "set" && Array.isArray(x) && Array.isArray(y)) return sameSet(x, y);
  return JSON.stringify(canonical(x)) === JSON.stringify(canonical(y));
}

function sameSet(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  const key = (v: unknown) => JSON.stringify(canonical(v));
  const x = a.map(key).sort();
  const y = b.map(key).sort();
  return x.every((v, i) => v === y[i]);
}

/** Objects with sorted keys and without empty members, so equal values print equally. */
function canonical(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined && x !== null)
        .sort(([k1], [k2]) => k1.localeCompare(k2))
        .map(([k, x]) => [k, canonical(x)]),
    );
  }
  return v;
}

/**
 * Properties known to be valid for the kind, as the kind's own input type: what a kind reads from
 * recorded state (written by any release) or from a preview's known values. Each property is
 * parsed on its own; one that does not parse (an older release stored it differently) is left out.
 */
export function partialInputs<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  props: Props,
): Partial<z.output<z.ZodObject<S>>> {
  const out: Props = {};
  for (const [key, schema] of Object.entries(def.input.shape)) {
    if (props[key] === undefined) continue;
    const parsed = z.safeParse(schema, props[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  // Every key was parsed by its own property schema above: this is the partial input type.
  return out as Partial<z.output<z.ZodObject<S>>>;
}
