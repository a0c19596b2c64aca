import { z } from "zod";
import { examplesOf, type SdkExamples } from "./examples.js";
import type { FunctionInfo } from "../resources/kit/function.js";
import { typeOf, type FunctionProperty, type TypeRef } from "./describe.js";

// A function as the generators see it: its arguments (read from the zod input, as a kind's are)
// and its result (read from the zod result: types, doc text, secrets and named item types).

/** A function, described. */
export interface FunctionDescription {
  name: string;
  doc: string;
  example: string;
  examples: SdkExamples;
  inputs: FunctionProperty[];
  outputs: FunctionProperty[];
  /** Whether its result holds a secret key: its Output form is then secret as a whole. */
  secret: boolean;
}

type Js = z.core.JSONSchema._JSONSchema;
type Defs = Record<string, Js>;

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const fields = (js: Js): Record<string, unknown> =>
  typeof js === "object" ? Object.fromEntries(Object.entries(js)) : {};

function describeOf(js: Js, where: string): string {
  const doc = typeof js === "object" ? js.description : undefined;
  if (!doc) throw new Error(`${where}: needs a description (.meta({ description }))`);
  return doc;
}

/** The type of one result key: primitives, lists, and named object types (`.meta({ id })`). */
function resultType(js: Js, defs: Defs, where: string): { type: TypeRef; nullable: boolean } {
  if (typeof js !== "object") throw new Error(`${where}: no schema type`);
  if (js.$ref) {
    const name = js.$ref.replace("#/$defs/", "");
    const def = defs[name];
    if (def === undefined) throw new Error(`${where}: ${js.$ref} is not defined`);
    return {
      type: { shape: "named", name, doc: describeOf(def, name), properties: objectProperties(def, defs, name) },
      nullable: false,
    };
  }
  const types = Array.isArray(js.type) ? js.type : [js.type];
  const nullable = types.includes("null");
  const [only, ...more] = types.filter((t) => t !== "null");
  if (more.length) throw new Error(`${where}: a union of types has no schema type`);
  if (only === "array") {
    if (js.items === undefined || Array.isArray(js.items)) throw new Error(`${where}: an array needs one item schema`);
    return { type: { shape: "array", items: resultType(js.items, defs, `${where}[]`).type }, nullable };
  }
  if (only === "string" || only === "integer" || only === "number" || only === "boolean")
    return { type: { shape: only }, nullable };
  throw new Error(`${where}: no schema type for ${JSON.stringify(js)}`);
}

/** The keys of a result object: each required unless nullable, secret where its meta says so. */
function objectProperties(js: Js, defs: Defs, where: string): FunctionProperty[] {
  if (typeof js !== "object") return [];
  const required = new Set(js.required ?? []);
  return Object.entries(js.properties ?? {}).map(([name, p]) => {
    const { type, nullable } = resultType(p, defs, `${where}.${name}`);
    return {
      name,
      doc: describeOf(p, `${where}.${name}`),
      type,
      required: required.has(name) && !nullable,
      secret: fields(p).secret === true,
    };
  });
}

/** Whether a type holds a secret key anywhere. */
function holdsSecret(props: readonly FunctionProperty[]): boolean {
  const inType = (t: TypeRef): boolean =>
    t.shape === "array" ? inType(t.items) : t.shape === "named" ? holdsSecret(t.properties) : false;
  return props.some((p) => p.secret || inType(p.type));
}

/** Describes a function from its declaration. */
export function describeFunction(def: FunctionInfo): FunctionDescription {
  const input = z.toJSONSchema(def.input, { io: "input", unrepresentable: "throw" });
  const required = new Set(input.required ?? []);
  const inputs = Object.entries(input.properties ?? {}).map(
    ([name, js]): FunctionProperty => ({
      name,
      doc: describeOf(js, `${def.name}.${name}`),
      type: typeOf(js, `${pascal(def.name)}.${name}`),
      required: required.has(name),
      secret: false,
    }),
  );
  const result = z.toJSONSchema(def.result, { io: "output", unrepresentable: "throw" });
  const defs: Defs = result.$defs ?? {};
  // A single lookup's result is a named shape itself: its keys are the function's outputs.
  const root = result.$ref ? (defs[result.$ref.replace("#/$defs/", "")] ?? result) : result;
  const outputs = objectProperties(root, defs, `${def.name}()`);
  return {
    name: def.name,
    doc: def.doc,
    ...examplesOf(def.name),
    inputs,
    outputs,
    secret: holdsSecret(outputs),
  };
}

/** A named object type of the functions' results (`FoundVoice`...). */
export type NamedType = Extract<TypeRef, { shape: "named" }>;

/** The named object types the functions' results use, each once, in the order first met. */
export function namedTypesOf(fns: readonly FunctionDescription[]): NamedType[] {
  const found = new Map<string, NamedType>();
  const visit = (t: TypeRef) => {
    if (t.shape === "array") visit(t.items);
    if (t.shape === "named" && !found.has(t.name)) {
      found.set(t.name, t);
      for (const p of t.properties) visit(p.type);
    }
  };
  for (const f of fns) for (const p of f.outputs) visit(p.type);
  return [...found.values()];
}
