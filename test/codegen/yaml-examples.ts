// The Pulumi YAML examples (provider/examples/<name>.yaml) as one program: the YAML host
// type-checks a program against the provider's schema only inside `pulumi preview`, so every
// snippet goes into one Pulumi.yaml and one preview checks them all. Each file is a fragment of a
// program (config, variables, resources, outputs); what one snippet declares and another refers to
// (a `warm` voice, a `support` agent) is declared alike in each, and merged once.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, stringify } from "yaml";

/** The sections of a Pulumi YAML program that the examples use. */
const SECTIONS = ["config", "variables", "resources", "outputs"] as const;

type Section = (typeof SECTIONS)[number];
/** A program's sections, each a map of declarations by name. */
export type YamlProgram = Record<Section, Record<string, unknown>>;

/**
 * Merges the example files into one program. A name declared by two files must be declared the
 * same way in both (else the program would not be what either file shows): that throws, naming both.
 */
export function mergeExamples(files: readonly string[]): YamlProgram {
  const merged: YamlProgram = { config: {}, variables: {}, resources: {}, outputs: {} };
  const owner = new Map<string, string>();
  for (const file of files) {
    const doc: unknown = parse(readFileSync(file, "utf8"));
    if (typeof doc !== "object" || doc === null) throw new Error(`${file}: not a YAML mapping`);
    for (const [section, entries] of Object.entries(doc)) {
      const s = SECTIONS.find((x) => x === section);
      if (!s) throw new Error(`${file}: ${section} is not a section the examples may use (${SECTIONS.join(", ")})`);
      for (const [name, decl] of Object.entries(entries as Record<string, unknown>)) {
        const key = `${s}.${name}`;
        const before = merged[s][name];
        if (before !== undefined && JSON.stringify(before) !== JSON.stringify(decl)) {
          throw new Error(`${path.basename(file)} declares ${key} otherwise than ${owner.get(key)}: rename one`);
        }
        merged[s][name] = decl;
        owner.set(key, path.basename(file));
      }
    }
  }
  return merged;
}

/** The Pulumi.yaml of a project running `program` on the plugin in `pluginDir`. */
export function projectYaml(name: string, program: YamlProgram, pluginDir: string): string {
  return stringify({
    name,
    runtime: "yaml",
    plugins: { providers: [{ name: "voiceagent", path: pluginDir }] },
    ...Object.fromEntries(SECTIONS.filter((s) => Object.keys(program[s]).length > 0).map((s) => [s, program[s]])),
  });
}
