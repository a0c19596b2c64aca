import { z } from "zod";
import { maskedCredential, SECRET_WIRE_FIELDS } from "pulumi-voiceagent/schemas";
import type { Store, Table } from "./db.js";

// The service answering in its own words (issue 40). By default the emulator answers every field
// exactly as it was sent, in the order objects were made, and lists show a write at once. Hosted
// APIs rarely do: they mask credentials (or leave them out), answer every optional field a request
// left out as null, list in an order of their own and lag behind writes. Each mode below is one of
// those habits, on demand and combinable with the fault rules; only answers change, never what is
// stored.

/** How the emulator words its answers (EmulatorOptions.answers); every mode off when omitted. */
export const AnswerModesSchema = z.strictObject({
  /**
   * Credentials (every secret-by-nature wire field, schemas/secrets.ts, wherever an answer holds
   * it): "echo" (default) the value stored, "masked" `****` and its last 4 characters as a hosted
   * API shows a key, "omitted" left out of the answer.
   */
  credentials: z.enum(["echo", "masked", "omitted"]).optional(),
  /**
   * Every optional field the object does not hold (the request left it out), nested ones too (a
   * collected field's `description`), answered as null: each field the route's answer schema
   * declares and lets be null.
   */
  unsetAsNull: z.boolean().optional(),
  /** List items "created" (default: oldest first) or "reversed" (newest first). */
  order: z.enum(["created", "reversed"]).optional(),
  /**
   * A new object is missing from the next `listings` listings of its collection (a listing: a list
   * request of page 1; its later pages show what page 1 saw), however long the client waits; a read
   * by id finds it at once. Lists count it (`total`) only once they show it.
   */
  listLag: z.strictObject({ listings: z.number().int().min(1) }).optional(),
});
/** How the emulator words its answers. */
export type AnswerModes = z.infer<typeof AnswerModesSchema>;

/** The wire names of every credential, from the one list of secret fields: the last key of each path. */
const CREDENTIAL_KEYS: ReadonlySet<string> = new Set(
  Object.values(SECRET_WIRE_FIELDS).flatMap((paths) => paths.map((p) => p.slice(p.lastIndexOf(".") + 1))),
);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A credential as a hosted API shows it: its last 4 characters. */

/** The answer modes of one emulator: what its answers say, and what its lists show. */
export class Answers {
  /** Per table and user, the listings (page-1 list requests) answered so far. */
  private readonly listings = new Map<string, number>();
  /** Per table and id, the listing count of its table (for its owner) when the object was made. */
  private readonly born = new Map<string, { user: string; at: number }>();

  constructor(readonly modes: AnswerModes) {}

  /** Whether any mode changes answers (else every answer goes out as it is). */
  get active(): boolean {
    const m = this.modes;
    return (
      (m.credentials ?? "echo") !== "echo" ||
      m.unsetAsNull === true ||
      (m.order ?? "created") !== "created" ||
      m.listLag !== undefined
    );
  }

  /** Watches the store's inserts, so a lagging list knows which objects are new. */
  watch(store: Store): void {
    if (!this.modes.listLag) return;
    store.onInsert((table, id, user) => {
      this.born.set(`${table}:${id}`, { user, at: this.listings.get(`${table}:${user}`) ?? 0 });
    });
  }

  /**
   * One page of a user's objects of `table` as the lists show them: in the order the modes say,
   * without those a lagging list does not show yet. Page 1 counts as a new listing.
   */
  page<T extends { id: string }>(
    store: Store,
    table: Table,
    user: string,
    page: number,
    size: number,
  ): { items: T[]; total: number } {
    const { order, listLag } = this.modes;
    if ((order ?? "created") === "created" && !listLag) return store.list<T>(table, user, page, size);
    const key = `${table}:${user}`;
    const seen = (this.listings.get(key) ?? 0) + (page === 1 ? 1 : 0);
    this.listings.set(key, seen);
    const all = store.all<T>(table, user).filter((item) => {
      const born = this.born.get(`${table}:${item.id}`);
      return !listLag || !born || seen - born.at > listLag.listings;
    });
    if (order === "reversed") all.reverse();
    return { items: all.slice((page - 1) * size, page * size), total: all.length };
  }

  /** An answer as the modes word it: credentials masked or left out, unset fields null. */
  word(body: unknown, schema: z.core.$ZodType | undefined): unknown {
    const creds = this.modes.credentials ?? "echo";
    const withCreds = creds === "echo" ? body : credentialsAs(body, creds);
    return this.modes.unsetAsNull && schema ? nullsFor(withCreds, schema) : withCreds;
  }
}

/** Every credential in `v`, at any depth, masked or left out. */
function credentialsAs(v: unknown, mode: "masked" | "omitted"): unknown {
  if (Array.isArray(v)) return v.map((x) => credentialsAs(x, mode));
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (CREDENTIAL_KEYS.has(k) && typeof x === "string") {
      if (mode === "masked") out[k] = maskedCredential(x);
      continue;
    }
    out[k] = credentialsAs(x, mode);
  }
  return out;
}

/**
 * `v` with every field `schema` declares, may be null and `v` lacks set to null, at every depth
 * (objects, arrays, the option of a union that reads `v`, wrappers).
 */
export function nullsFor(v: unknown, schema: z.core.$ZodType): unknown {
  const s = unwrapped(schema);
  if (s instanceof z.core.$ZodArray) {
    const element = s._zod.def.element;
    return Array.isArray(v) ? v.map((x) => nullsFor(x, element)) : v;
  }
  if (s instanceof z.core.$ZodUnion) {
    const options: readonly z.core.$ZodType[] = s._zod.def.options;
    const fits = options.find((o) => z.safeParse(o, v).success);
    return fits ? nullsFor(v, fits) : v;
  }
  if (!(s instanceof z.core.$ZodObject) || !isRecord(v)) return v;
  const shape: Readonly<Record<string, z.core.$ZodType>> = s._zod.def.shape;
  const out: Record<string, unknown> = { ...v };
  for (const [k, field] of Object.entries(shape)) {
    if (out[k] === undefined) {
      if (z.safeParse(field, null).success) out[k] = null;
    } else out[k] = nullsFor(out[k], field);
  }
  return out;
}

/** The schema under optional, nullable, default, pipe and lazy wrappers. */
function unwrapped(schema: z.core.$ZodType): z.core.$ZodType {
  let s = schema;
  for (let i = 0; i < 16; i++) {
    if (s instanceof z.core.$ZodOptional || s instanceof z.core.$ZodNullable || s instanceof z.core.$ZodDefault)
      s = s._zod.def.innerType;
    else if (s instanceof z.core.$ZodPipe) s = s._zod.def.in;
    else if (s instanceof z.core.$ZodLazy) s = s._zod.def.getter();
    else break;
  }
  return s;
}
