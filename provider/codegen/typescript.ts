import type { KindDescription, PropertyDescription, TypeRef } from "./describe.js";

// The public TypeScript classes of the dynamic entry, generated from the kinds: each kind's Args
// (JSDoc on every property), its outputs and its class. Plain TypeScript, so a user's type-check
// never descends into zod.

/** `PhoneNumber` → `phone-number`: the file a kind's class (and its definition) lives in. */
export const fileOf = (kind: string): string => kind.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());
const an = (kind: string) => (/^[AEIOU]/.test(kind) ? "an" : "a");

/** A JSDoc block: text wrapped at 110 columns, tags and code lines as they are. */
function jsdoc(indent: string, text: string, tags: string[] = []): string {
  const width = 110 - indent.length - 3;
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  const all = [...lines, ...tags.flatMap((t) => t.split("\n"))].map((l) => l.replaceAll("*/", "*\\/"));
  const [only] = all;
  if (all.length === 1 && only !== undefined && indent.length + only.length + 7 <= 130) return `${indent}/** ${only} */\n`;
  return `${indent}/**\n${all.map((l) => `${indent} *${l ? ` ${l}` : ""}`).join("\n")}\n${indent} */\n`;
}

/** The nested objects of a type (an action's `config`), each once. */
function objectsIn(t: TypeRef): Extract<TypeRef, { kind: "object" }>[] {
  if (t.kind === "object") return [t, ...t.known.flatMap((k) => objectsIn(k.type))];
  if (t.kind === "array") return objectsIn(t.items);
  return [];
}

/** The type of an argument's value: each level may be an Output. */
function argType(t: TypeRef, enums: Set<string>): string {
  switch (t.kind) {
    case "string":
    case "boolean":
      return t.kind;
    case "integer":
    case "number":
      return "number";
    case "any":
      return "unknown";
    case "enum":
      enums.add(t.name);
      return t.name;
    case "array":
      return `pulumi.Input<${argType(t.items, enums)}>[]`;
    case "object":
      return `${t.name}Args`;
  }
}

/** The type of a deployed value. */
function outType(t: TypeRef): string {
  switch (t.kind) {
    case "string":
    case "boolean":
      return t.kind;
    case "integer":
    case "number":
      return "number";
    case "any":
      return "unknown";
    case "enum":
      return "string";
    case "array":
      return `${t.items.kind === "enum" || t.items.kind === "any" || t.items.kind === "object" || t.items.kind === "array" ? `(${outType(t.items)})` : outType(t.items)}[]`;
    case "object":
      return t.name;
  }
}

const docTags = (p: { deprecated?: string }) => (p.deprecated ? [`@deprecated ${p.deprecated}`] : []);

function nestedInterfaces(k: KindDescription, enums: Set<string>): string {
  return k.properties
    .flatMap((p) => (p.input ? objectsIn(p.input.type).map((o) => [p, o] as const) : []))
    .map(([p, o]) => {
      const args =
        jsdoc("", `The \`${p.name}\` of ${an(k.kind)} {@link ${k.kind}}.`) +
        `export interface ${o.name}Args {\n` +
        o.known.map((n) => jsdoc("  ", n.doc) + `  ${n.name}${n.required ? "" : "?"}: pulumi.Input<${argType(n.type, enums)}>;\n`).join("") +
        jsdoc("  ", "Other keys are passed to the service as they are.") +
        "  [key: string]: pulumi.Input<unknown> | undefined;\n}\n";
      const out =
        jsdoc("", `The \`${p.name}\` of ${an(k.kind)} {@link ${k.kind}} as deployed.`) +
        `export interface ${o.name} {\n` +
        o.known.map((n) => jsdoc("  ", n.doc) + `  ${n.name}${n.required ? "" : "?"}: ${outType(n.type)};\n`).join("") +
        jsdoc("  ", "Other keys, as the service holds them.") +
        "  [key: string]: unknown;\n}\n";
      return `${args}\n${out}`;
    })
    .join("\n");
}

const member = (p: PropertyDescription, type: string, required: boolean) => jsdoc("  ", p.doc, docTags(p)) + `  ${p.name}${required ? "" : "?"}: ${type};\n`;

/** The source of one kind's public class file. */
export function classSource(k: KindDescription): string {
  const enums = new Set<string>();
  const inputs = k.properties.filter((p) => p.input);
  // What the resource reports: its outputs that are not inputs, and the inputs the service always fills.
  const reported = k.properties.filter((p) => !p.input || p.reported);
  const deployed = inputs.filter((p) => !reported.includes(p));
  const args =
    jsdoc("", `The arguments of ${an(k.kind)} {@link ${k.kind}}.`) +
    `export interface ${k.kind}Args {\n` +
    inputs.map((p) => (p.input ? member(p, `pulumi.Input<${argType(p.input.type, enums)}>`, p.input.required) : "")).join("") +
    "}\n";
  const nested = nestedInterfaces(k, enums);
  const state =
    jsdoc("", `What ${an(k.kind)} {@link ${k.kind}} reports besides its arguments (as of the last up or refresh).`) +
    `export interface ${k.kind}State {\n${reported.map((p) => member(p, outType(p.output.type), p.output.required)).join("")}}\n`;
  const outputs =
    jsdoc("", `The outputs of ${an(k.kind)} {@link ${k.kind}}: its arguments as deployed, and what it reports.`) +
    `export interface ${k.kind}Outputs extends ${k.kind}State {\n${deployed.map((p) => member(p, outType(p.output.type), p.output.required)).join("")}}\n`;
  const optionalArgs = argsOptional(k);
  const imports = [
    'import type * as pulumi from "@pulumi/pulumi";',
    ...(enums.size ? [`import type { ${[...enums].sort().join(", ")} } from "../schemas/values.js";`] : []),
    'import { VoiceAgentResource } from "./base.js";',
    'import { DECLARED } from "./declared.js";',
    'import type { OutputsOf } from "./outputs.js";',
  ];
  return [
    `// Generated by \`npm run gen\` from the kind in provider/resources/kinds/${fileOf(k.kind)}.ts: edit that, not this file.\n${imports.join("\n")}\n`,
    args,
    ...(nested ? [nested] : []),
    state,
    outputs,
    "// The outputs are declared by merging this interface into the class below.\n" +
      `export interface ${k.kind} extends OutputsOf<${k.kind}Outputs> {}\n`,
    jsdoc("", k.doc, ["@example", ...k.example.split("\n")]) +
      `export class ${k.kind} extends VoiceAgentResource {\n` +
      `  constructor(name: string, args: ${k.kind}Args${optionalArgs ? " = {}" : ""}, opts?: pulumi.CustomResourceOptions) {\n` +
      `    super("${k.kind}", name, args, opts, DECLARED.${k.kind});\n` +
      "  }\n}\n",
  ].join("\n");
}

/**
 * The source of resources/declared.ts: each kind's property names and secret outputs, as plain data
 * (no zod), for the classes of both entries to register.
 */
export function declaredSource(kinds: readonly KindDescription[]): string {
  const entries = kinds.map((k) => {
    const secrets = k.properties.filter((p) => p.output.secret).map((p) => JSON.stringify(p.name));
    return (
      `  ${k.kind}: {\n` +
      `    properties: [${k.properties.map((p) => JSON.stringify(p.name)).join(", ")}],\n` +
      (secrets.length ? `    secrets: [${secrets.join(", ")}],\n` : "") +
      "  },\n"
    );
  });
  return [
    "// Generated by `npm run gen` from the kinds' registry, provider/resources/kinds/index.ts: edit the kinds, not this file.",
    'import type { Declared } from "./base.js";',
    "",
    "/** What each kind's resources register: every property (inputs and outputs) and the outputs that are secret. */",
    `export const DECLARED = {\n${entries.join("")}} as const satisfies Record<string, Declared>;`,
    "",
  ].join("\n");
}

/** The public type names of a kind: its Args, its nested objects' types, its Outputs and State. */
function typeNames(k: KindDescription): string[] {
  const nested = k.properties.flatMap((p) => (p.input ? objectsIn(p.input.type) : [])).flatMap((o) => [`${o.name}Args`, o.name]);
  return [`${k.kind}Args`, ...nested, `${k.kind}Outputs`, `${k.kind}State`];
}

/** Whether every argument of a kind is optional (its class then takes none). */
const argsOptional = (k: KindDescription) => k.properties.every((p) => !p.input?.required);

/** The source of resources/index.ts: every class and its types. */
export function indexSource(kinds: readonly KindDescription[]): string {
  const lines = kinds.map((k) => `export { ${k.kind}, ${typeNames(k).map((t) => `type ${t}`).join(", ")} } from "./${fileOf(k.kind)}.js";`);
  return [
    "// Generated by `npm run gen` from the kinds' registry, provider/resources/kinds/index.ts: edit that, not this file.",
    ...lines,
    'export type { Deployed, OutputsOf } from "./outputs.js";',
    "",
  ].join("\n");
}

/**
 * The source of native/resources.ts: each kind's class on the native provider, the same name,
 * arguments and outputs as the dynamic class (its types are re-exported, not restated); the class
 * is its kind's name and nothing else (native/base.ts does the rest).
 */
export function nativeSource(kinds: readonly KindDescription[]): string {
  const types = kinds.flatMap(typeNames);
  const classes = kinds.map(
    (k) =>
      `export interface ${k.kind} extends OutputsOf<${k.kind}Outputs> {}\n` +
      jsdoc("", `${k.doc}\nOn the native provider: \`voiceagent:index:${k.kind}\`.`, ["@example", ...k.example.split("\n")]) +
      `export class ${k.kind} extends NativeResource {\n` +
      `  constructor(name: string, args: ${k.kind}Args${argsOptional(k) ? " = {}" : ""}, opts?: pulumi.CustomResourceOptions) {\n` +
      `    super("${k.kind}", name, args, opts);\n` +
      "  }\n}\n",
  );
  return [
    "// Generated by `npm run gen` from the kinds' registry, provider/resources/kinds/index.ts: edit the kinds, not this file.",
    'import type * as pulumi from "@pulumi/pulumi";',
    `import type {\n${["OutputsOf", ...kinds.flatMap((k) => [`${k.kind}Args`, `${k.kind}Outputs`])].map((t) => `  ${t},\n`).join("")}} from "../resources/index.js";`,
    'import { NativeResource } from "./base.js";',
    "",
    `export type {\n${["Deployed", "OutputsOf", ...types].map((t) => `  ${t},\n`).join("")}} from "../resources/index.js";`,
    "// Each class's outputs are declared by merging an interface into it, as on the dynamic classes.",
    "",
    classes.join("\n"),
  ].join("\n");
}
