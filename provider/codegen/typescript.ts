import { tokenOf } from "../identity.js";
import { SETTINGS } from "../resources/kit/setting-docs.js";
import type { KindDescription, PropertyDescription, TypeRef } from "./describe.js";

// The public TypeScript classes of the dynamic entry, generated from the kinds: each kind's Args
// (JSDoc on every property), its outputs and its class. Plain TypeScript, so a user's type-check
// never descends into zod.

/** `PhoneNumber` → `phone-number`: the file a kind's class (and its definition) lives in. */
export const fileOf = (kind: string): string =>
  kind.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());
const an = (kind: string) => (/^[AEIOU]/.test(kind) ? "an" : "a");

/** A JSDoc block: text wrapped at 110 columns, tags and code lines as they are. */
export function jsdoc(indent: string, text: string, tags: string[] = []): string {
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
  if (all.length === 1 && only !== undefined && indent.length + only.length + 7 <= 130)
    return `${indent}/** ${only} */\n`;
  return `${indent}/**\n${all.map((l) => `${indent} *${l ? ` ${l}` : ""}`).join("\n")}\n${indent} */\n`;
}

/** A nested object or map of a type (an action's `config`, an agent's `deepgramKeywords`), named in its own interface. */
export type Nested = Extract<TypeRef, { shape: "object" | "map" }>;

/** The nested objects and maps of a type, each once. */
function objectsIn(t: TypeRef): Nested[] {
  if (t.shape === "object") return [t, ...t.known.flatMap((k) => objectsIn(k.type))];
  if (t.shape === "map") return [t, ...objectsIn(t.values)];
  if (t.shape === "array") return objectsIn(t.items);
  return [];
}

/** How a generated type spells what differs between its uses: an array, a nested object or map, a named type. */
export interface Spelling {
  /** An array, its item already spelt. */
  array(item: string): string;
  /** A nested object or map. */
  nested(t: Nested): string;
  /** A function's result type, by its name. */
  named(name: string): string;
}

/**
 * A value's type as given (an argument, a fleet entry's field): scalars and enums alike everywhere
 * (each enum by its name in schemas/values.ts, collected into `enums` for the import), the rest as
 * `spelling` says.
 */
export function valueType(t: TypeRef, enums: Set<string>, spelling: Spelling): string {
  switch (t.shape) {
    case "string":
    case "boolean":
      return t.shape;
    case "integer":
    case "number":
      return "number";
    case "any":
      return "unknown";
    case "enum":
      enums.add(t.name);
      return t.name;
    case "array":
      return spelling.array(valueType(t.items, enums, spelling));
    case "object":
    case "map":
      return spelling.nested(t);
    case "named":
      return spelling.named(t.name);
  }
}

/** An argument's type: each level may be an Output, a nested object or map named in its own interface. */
const argSpelling: Spelling = {
  array: (item) => `pulumi.Input<${item}>[]`,
  nested: (t) => `${t.name}Args`,
  named: (name) => name,
};
const argType = (t: TypeRef, enums: Set<string>) => valueType(t, enums, argSpelling);

/** The type of a deployed value, or of a function's argument or result: a plain value. */
export function outType(t: TypeRef): string {
  switch (t.shape) {
    case "string":
    case "boolean":
      return t.shape;
    case "integer":
    case "number":
      return "number";
    case "any":
      return "unknown";
    case "enum":
      return "string";
    case "array": {
      const shape = t.items.shape;
      const grouped = shape === "enum" || shape === "any" || shape === "object" || shape === "map" || shape === "array";
      return `${grouped ? `(${outType(t.items)})` : outType(t.items)}[]`;
    }
    case "object":
    case "map":
    case "named":
      return t.name;
  }
}

const docTags = (p: { deprecated?: string }) => (p.deprecated ? [`@deprecated ${p.deprecated}`] : []);

function nestedInterfaces(k: KindDescription, enums: Set<string>): string {
  return k.properties
    .flatMap((p) => (p.input ? objectsIn(p.input.type).map((o) => [p, o] as const) : []))
    .map(([p, o]) => {
      const whose = `The \`${p.name}\` of ${an(k.kind)} {@link ${k.kind}}`;
      const known = o.shape === "object" ? o.known : [];
      // A closed object takes only its keys (a misspelt one is a type error); an open one and a
      // map take any key, of the map's value type.
      const others =
        o.shape === "map"
          ? {
              arg: `pulumi.Input<${argType(o.values, enums)}>`,
              out: outType(o.values),
              doc: "Each key and its value.",
              outDoc: "Each key and its value.",
            }
          : o.open
            ? {
                arg: "pulumi.Input<unknown> | undefined",
                out: "unknown",
                doc: "Other keys are passed to the service as they are.",
                outDoc: "Other keys, as the service holds them.",
              }
            : undefined;
      const args =
        jsdoc("", `${whose}.`) +
        `export interface ${o.name}Args {\n` +
        known
          .map(
            (n) =>
              jsdoc("  ", n.doc) + `  ${n.name}${n.required ? "" : "?"}: pulumi.Input<${argType(n.type, enums)}>;\n`,
          )
          .join("") +
        (others ? jsdoc("  ", others.doc) + `  [key: string]: ${others.arg};\n` : "") +
        "}\n";
      const out =
        jsdoc("", `${whose} as deployed.`) +
        `export interface ${o.name} {\n` +
        known.map((n) => jsdoc("  ", n.doc) + `  ${n.name}${n.required ? "" : "?"}: ${outType(n.type)};\n`).join("") +
        (others ? jsdoc("  ", others.outDoc) + `  [key: string]: ${others.out};\n` : "") +
        "}\n";
      return `${args}\n${out}`;
    })
    .join("\n");
}

const member = (p: PropertyDescription, type: string, required: boolean) =>
  jsdoc("  ", p.doc, docTags(p)) + `  ${p.name}${required ? "" : "?"}: ${type};\n`;

/**
 * A class's static `get`: reads an existing object into the program by its id (a read, never a
 * change or a delete), as every Pulumi SDK's `Resource.get(name, id, state, opts)` does.
 */
function staticGet(k: KindDescription): string {
  return (
    jsdoc(
      "  ",
      `Reads an existing ${k.kind} into the program by its id: the stack records it as read, never changes or deletes it. ` +
        "`state` is what is already known of it (optional).",
    ) +
    `  static get(name: string, id: pulumi.Input<pulumi.ID>, state: Partial<${k.kind}Outputs> = {}, opts?: ` +
    `pulumi.CustomResourceOptions): ${k.kind} {\n` +
    `    return new ${k.kind}(name, knownState<${k.kind}Args>(state), { ...opts, id });\n` +
    "  }\n\n"
  );
}

/** A class's constructor (one signature, so a program may pick a class from either entry at run time). */
function constructors(k: KindDescription, optionalArgs: boolean): string {
  return `  constructor(name: string, args: ${k.kind}Args${optionalArgs ? " = {}" : ""}, opts?: pulumi.CustomResourceOptions) {\n`;
}

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
    inputs
      .map((p) => (p.input ? member(p, `pulumi.Input<${argType(p.input.type, enums)}>`, p.input.required) : ""))
      .join("") +
    "}\n";
  const nested = nestedInterfaces(k, enums);
  const state =
    jsdoc("", `What ${an(k.kind)} {@link ${k.kind}} reports besides its arguments (as of the last up or refresh).`) +
    `export interface ${k.kind}State {\n${reported.map((p) => member(p, outType(p.output.type), p.output.required)).join("")}}\n`;
  const outputs =
    jsdoc("", `The outputs of ${an(k.kind)} {@link ${k.kind}}: its arguments as deployed, and what it reports.`) +
    `export interface ${k.kind}Outputs extends ${k.kind}State ` +
    `{\n${deployed.map((p) => member(p, outType(p.output.type), p.output.required)).join("")}}\n`;
  const optionalArgs = argsOptional(k);
  const imports = [
    'import type * as pulumi from "@pulumi/pulumi";',
    ...(enums.size ? [`import type { ${[...enums].sort().join(", ")} } from "../../schemas/values.js";`] : []),
    'import { VoiceAgentResource } from "../../dynamic/base.js";',
    'import { knownState, type OutputsOf } from "../../dynamic/outputs.js";',
    'import { KIND_PROPERTIES } from "../properties.js";',
  ];
  return [
    `// Generated by \`npm run gen\` from the kind in provider/resources/kinds/${fileOf(k.kind)}.ts: edit that, not ` +
      `this file.\n${imports.join("\n")}\n`,
    args,
    ...(nested ? [nested] : []),
    state,
    outputs,
    "// The outputs are declared by merging this interface into the class below.\n" +
      `export interface ${k.kind} extends OutputsOf<${k.kind}Outputs> {}\n`,
    jsdoc("", k.doc, ["@example", ...k.example.split("\n")]) +
      `export class ${k.kind} extends VoiceAgentResource {\n` +
      staticGet(k) +
      constructors(k, optionalArgs) +
      `    super("${k.kind}", name, args, opts, KIND_PROPERTIES.${k.kind});\n` +
      "  }\n}\n",
  ].join("\n");
}

/**
 * The source of generated/properties.ts: each kind's property names and secret outputs, as plain
 * data (no zod), for the classes of both entries to register.
 */
export function propertiesSource(kinds: readonly KindDescription[]): string {
  const entries = kinds.map((k) => {
    const secrets = k.properties.filter((p) => p.output.secret).map((p) => JSON.stringify(p.name));
    const boundOnce = k.properties.find((p) => p.input?.boundOnce);
    return (
      `  ${k.kind}: {\n` +
      `    properties: [${k.properties.map((p) => JSON.stringify(p.name)).join(", ")}],\n` +
      (secrets.length ? `    secrets: [${secrets.join(", ")}],\n` : "") +
      (boundOnce ? `    boundOnce: ${JSON.stringify(boundOnce.name)},\n` : "") +
      "  },\n"
    );
  });
  return [
    "// Generated by `npm run gen` from the kinds' registry, provider/resources/kinds/index.ts: edit the kinds, not this file.",
    'import type { KindProperties } from "../dynamic/base.js";',
    "",
    "/** What each kind's resources register: every property (inputs and outputs) and the outputs that are secret. */",
    `export const KIND_PROPERTIES = {\n${entries.join("")}} as const satisfies Record<string, KindProperties>;`,
    "",
  ].join("\n");
}

/** The public type names of a kind: its Args, its nested objects' types, its Outputs and State. */
function typeNames(k: KindDescription): string[] {
  const nested = k.properties
    .flatMap((p) => (p.input ? objectsIn(p.input.type) : []))
    .flatMap((o) => [`${o.name}Args`, o.name]);
  return [`${k.kind}Args`, ...nested, `${k.kind}Outputs`, `${k.kind}State`];
}

/** Whether every argument of a kind is optional (its class then takes none). */
const argsOptional = (k: KindDescription) => k.properties.every((p) => !p.input?.required);

/** The source of generated/dynamic/index.ts: every class and its types. */
export function indexSource(kinds: readonly KindDescription[]): string {
  const lines = kinds.map(
    (k) =>
      `export { ${k.kind}, ${typeNames(k)
        .map((t) => `type ${t}`)
        .join(", ")} } from "./${fileOf(k.kind)}.js";`,
  );
  return [
    "// Generated by `npm run gen` from the kinds' registry, provider/resources/kinds/index.ts: edit that, not this file.",
    ...lines,
    'export type { Deployed, OutputsOf } from "../../dynamic/outputs.js";',
    "",
  ].join("\n");
}

/**
 * The source of generated/native.ts: each kind's class on the native provider, the same name,
 * arguments and outputs as the dynamic class (its types are re-exported, not restated); the class
 * is its kind's name and nothing else (native/base.ts does the rest).
 */
export function nativeSource(kinds: readonly KindDescription[]): string {
  const types = kinds.flatMap(typeNames);
  const classes = kinds.map(
    (k) =>
      `export interface ${k.kind} extends OutputsOf<${k.kind}Outputs> {}\n` +
      jsdoc("", `${k.doc}\nOn the native provider: \`${tokenOf(k.kind)}\`.`, ["@example", ...k.example.split("\n")]) +
      `export class ${k.kind} extends NativeResource {\n` +
      staticGet(k) +
      constructors(k, argsOptional(k)) +
      `    super("${k.kind}", name, args, opts);\n` +
      "  }\n}\n",
  );
  const imported = ["OutputsOf", ...kinds.flatMap((k) => [`${k.kind}Args`, `${k.kind}Outputs`])];
  return [
    "// Generated by `npm run gen` from the kinds' registry, provider/resources/kinds/index.ts: edit the kinds, not this file.",
    'import type * as pulumi from "@pulumi/pulumi";',
    `import type {\n${imported.map((t) => `  ${t},\n`).join("")}} from "./dynamic/index.js";`,
    'import { NativeResource } from "../native/base.js";',
    'import { knownState } from "../dynamic/outputs.js";',
    "",
    `export type {\n${["Deployed", "OutputsOf", ...types].map((t) => `  ${t},\n`).join("")}} from "./dynamic/index.js";`,
    "// Each class's outputs are declared by merging an interface into it, as on the dynamic classes.",
    "",
    classes.join("\n"),
  ].join("\n");
}

/**
 * The source of generated/provider-args.ts: the native `Provider`'s arguments, one per provider
 * setting, with the setting's doc text and, for a setting of a few values, their union.
 */
export function providerArgsSource(): string {
  const members = SETTINGS.map(
    (s) =>
      jsdoc("  ", s.doc) +
      `  ${s.name}?: pulumi.Input<${s.values ? s.values.map((v) => JSON.stringify(v)).join(" | ") : "string"}>;\n`,
  );
  return [
    "// Generated by `npm run gen` from the provider settings, provider/resources/kit/setting-docs.ts: edit those, not this file.",
    'import type * as pulumi from "@pulumi/pulumi";',
    "",
    jsdoc("", "The settings of an explicit `Provider`; unset ones fall back to `VOICEAGENT_*` variables.") +
      `export interface ProviderArgs {\n${members.join("")}}`,
    "",
  ].join("\n");
}
