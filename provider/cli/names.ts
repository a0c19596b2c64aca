import type { Action, Agent, PhoneNumber, Voice, Webhook } from "../client/index.js";

/** The longest base name before a collision suffix. */
const MAX_NAME = 40;

/**
 * A readable ASCII slug: accents folded, everything else but letters and digits turned into
 * single dashes, at most `maxWords` words and {@link MAX_NAME} characters. May be empty.
 */
export function slug(text: string, maxWords = 6): string {
  const words = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, maxWords);
  let out = "";
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if (next.length > MAX_NAME) break;
    out = next;
  }
  return out || (words[0] ?? "").slice(0, MAX_NAME);
}

/** Openings that every prompt shares and that say nothing about the agent. */
const PROMPT_OPENING = /^\s*(?:you\s+are|you're|you\s+will\s+be|act\s+as|as)\s+(?:an?|the)?\s*/i;

/** An agent's base name: the first words of its prompt after "You are the". */
export function agentBaseName(a: Pick<Agent, "prompt">): string {
  const firstSentence = a.prompt.replace(PROMPT_OPENING, "").split(/[.!?;:\n]/)[0] ?? "";
  return slug(firstSentence, 4) || slug(a.prompt, 4) || "agent";
}

/** A voice's base name: its voice name. */
export function voiceBaseName(v: Pick<Voice, "voice_name">): string {
  return slug(v.voice_name) || "voice";
}

/** An action's base name: its type without the `action_` prefix, and the last digits of its number. */
export function actionBaseName(a: Pick<Action, "type" | "config">): string {
  const type = slug(a.type.replace(/^action_/, "")) || "action";
  const phone = typeof a.config.phone_number === "string" ? a.config.phone_number.replace(/\D/g, "").slice(-4) : "";
  return phone ? `${type}-${phone}` : type;
}

/** A webhook's base name: its URL's host and path. */
export function webhookBaseName(w: Pick<Webhook, "url">): string {
  let text = w.url;
  try {
    const u = new URL(w.url);
    text = `${u.hostname} ${u.pathname}`;
  } catch {
    // Not a URL: the slug of the text itself is still readable.
  }
  return slug(text) || "webhook";
}

/** A number's base name: `line-` and its last four digits (the whole number is not in the URN). */
export function numberBaseName(n: Pick<PhoneNumber, "number">): string {
  return `line-${n.number.replace(/\D/g, "").slice(-4) || "number"}`;
}

/**
 * Unique names for objects of one kind. Objects whose base names collide all get a suffix from
 * their id (8 characters, longer if needed), so the result depends only on the set of objects,
 * never on the order they were listed in, and an object keeps its name while nothing collides.
 */
export function uniqueNames(objects: readonly { id: string; base: string }[]): Map<string, string> {
  const suffixLen = new Map(objects.map((o) => [o.id, 0]));
  const nameOf = (o: { id: string; base: string }) => {
    const n = suffixLen.get(o.id) ?? 0;
    return n === 0 ? o.base : `${o.base}-${o.id.replace(/-/g, "").slice(0, n).toLowerCase()}`;
  };
  for (;;) {
    const byName = new Map<string, { id: string; base: string }[]>();
    for (const o of objects) byName.set(nameOf(o), [...(byName.get(nameOf(o)) ?? []), o]);
    const clashing = [...byName.values()].filter((g) => g.length > 1).flat();
    const growable = clashing.filter((o) => (suffixLen.get(o.id) ?? 0) < o.id.replace(/-/g, "").length);
    if (growable.length === 0) break;
    for (const o of growable) {
      const n = suffixLen.get(o.id) ?? 0;
      suffixLen.set(o.id, n === 0 ? 8 : n + 4);
    }
  }
  return new Map(objects.map((o) => [o.id, nameOf(o)]));
}

/** Words a variable may not be named: reserved in strict mode or TypeScript, or names the program uses. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval as any async " +
    "declare from get is keyof module namespace never of readonly require set symbol type undefined unique unknown " +
    "exports process console global globalThis Object Array String Number Boolean Promise Error JSON Math Date " +
    "NaN Infinity va pulumi"
  ).split(" "),
);

/** camelCase of a dashed name: `support-line-2` → `supportLine2`; empty when nothing is left. */
export function camel(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join("");
}

/**
 * Gives each resource a variable name unique in the program: the camelCase of its resource name,
 * with the kind appended when that is reserved, taken, or starts with a digit, and a number after
 * that if still taken. Call in a fixed order for a deterministic result.
 */
export function variableNamer(): (name: string, kind: string) => string {
  const taken = new Set<string>();
  return (name, kind) => {
    const base = camel(name);
    const free = (n: string) => !taken.has(n) && !RESERVED.has(n);
    let stem = base && !/^\d/.test(base) ? base : `${camel(kind)}${base.charAt(0).toUpperCase()}${base.slice(1)}`;
    if (!free(stem)) stem = `${stem}${kind}`;
    let candidate = stem;
    for (let i = 2; !free(candidate); i++) candidate = `${stem}${i}`;
    taken.add(candidate);
    return candidate;
  };
}
