import { z } from "zod";
import type { VoiceAgentClient } from "../../client/index.js";

// A function (a Pulumi "invoke"): a read a program makes while it runs, in preview too. Declared
// once, like a kind; the package schema, the plugin's Invoke, the SDKs and both TypeScript
// entries are derived from the declaration.

/** One function, declared once: what it takes (zod), what it answers (zod) and how it reads the service. */
export interface FunctionDef<I extends z.ZodObject, O extends z.ZodObject, N extends string = string> {
  /** The function's name in TypeScript and the last part of its token (identity.ts), e.g. "getVoice". */
  name: N;
  /** What it looks up, for users: the schema's description and the generated functions' JSDoc. */
  doc: string;
  /**
   * The arguments: each property's validation and doc text (`.meta({ description })`). Names are
   * camelCase, as on the kinds' inputs.
   */
  input: I;
  /**
   * The result: every key's type and doc text (`.meta({ description })`); a key whose meta says
   * `secret: true` comes back secret. Lists of objects name their item type with `.meta({ id })`.
   * Optional keys must be `.nullable()` so every result has every key.
   */
  result: O;
  /**
   * Reads the service (only reads: a function runs in preview) and answers the result. A lookup
   * that finds nothing throws an error naming what it looked for.
   */
  run(client: VoiceAgentClient, args: z.output<I>): Promise<z.input<O>>;
}

/** A function's declaration as the registry's readers see it (codegen, the plugin, the dynamic entry). */
export interface FunctionInfo {
  name: string;
  doc: string;
  input: z.ZodObject;
  result: z.ZodObject;
}

/** A function as the registry holds it: its declaration, and the read with its types erased. */
export interface RegisteredFunction<N extends string = string> {
  name: N;
  info: FunctionInfo;
  /** Runs the read on already validated arguments and parses what it answers. */
  run(client: VoiceAgentClient, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * Declares a function. The types tie it together: `run` receives the parsed arguments of `input`
 * and must answer a value of `result`.
 */
export function defineFunction<I extends z.ZodObject, O extends z.ZodObject, N extends string>(
  def: FunctionDef<I, O, N>,
): FunctionDef<I, O, N> {
  return def;
}

/** Registers one function's declaration. */
export function registeredFunction<I extends z.ZodObject, O extends z.ZodObject, N extends string>(
  def: FunctionDef<I, O, N>,
): RegisteredFunction<N> {
  return {
    name: def.name,
    info: def,
    async run(client, args) {
      const answered = await def.run(client, def.input.parse(args));
      // The declaration's own result schema: a reader that answers the wrong shape fails here, not in a program.
      return def.result.parse(answered);
    },
  };
}

/** A path to a secret value in a result: keys, with "*" for every item of a list. */
export type SecretPath = readonly string[];

/**
 * Where a result holds secrets, read from the result schema's `secret: true` meta (nested item
 * types too): what the plugin wraps secret, the schema marks secret, and the dynamic entry's
 * Output form makes secret.
 */
export function secretPaths(result: z.ZodObject): SecretPath[] {
  const js = z.toJSONSchema(result, { io: "output", unrepresentable: "throw" });
  const defs = js.$defs ?? {};
  const walk = (node: unknown, at: string[]): SecretPath[] => {
    if (!node || typeof node !== "object") return [];
    const o = Object.fromEntries(Object.entries(node));
    if (o.secret === true) return [at];
    if (typeof o.$ref === "string") return walk(defs[o.$ref.replace("#/$defs/", "")], at);
    if (Array.isArray(o.anyOf)) return o.anyOf.flatMap((x) => walk(x, at));
    if (o.items) return walk(o.items, [...at, "*"]);
    if (o.properties && typeof o.properties === "object")
      return Object.entries(o.properties).flatMap(([k, v]) => walk(v, [...at, k]));
    return [];
  };
  return walk(js, []);
}

/**
 * The result with the value at each secret path replaced by `wrap(value)`, where it is present
 * (a null is wrapped too, so whether a result is secret never depends on the data).
 */
export function markSecrets(
  result: Record<string, unknown>,
  paths: readonly SecretPath[],
  wrap: (v: unknown) => unknown,
): Record<string, unknown> {
  const at = (value: unknown, path: readonly string[]): unknown => {
    if (path.length === 0) return value === undefined ? value : wrap(value);
    const [head, ...rest] = path;
    if (head === "*") return Array.isArray(value) ? value.map((x) => at(x, rest)) : value;
    if (!value || typeof value !== "object" || Array.isArray(value) || head === undefined) return value;
    const o = Object.fromEntries(Object.entries(value));
    if (!(head in o)) return value;
    return { ...o, [head]: at(o[head], rest) };
  };
  let out: unknown = result;
  for (const p of paths) out = at(out, p);
  return out && typeof out === "object" && !Array.isArray(out) ? Object.fromEntries(Object.entries(out)) : result;
}
