// `voiceagent pull --format yaml`: the account as a Pulumi YAML program (runtime: yaml). The same
// plan as the TypeScript program (names, adoption inputs, references, skipped objects), written as
// Pulumi.yaml with each object adopted by its id, so the first `up` creates nothing. A prompt is
// never written into the file: each agent's prompt is a secret config value the program declares
// and the CLI stores in the stack (encrypted), and the agent reads it as `${<key>}`.
import { PACKAGE_VERSION } from "../client/index.js";
import { PLUGIN_DOWNLOAD_URL } from "../native/version.js";
import { type AccountCollection, HEADING } from "./kinds.js";
import type { Json } from "../schemas/json.js";
import { commentText, stringLiteral } from "./literal.js";
import { type Arg, type PlannedResource, type PullPlan, secretsOf } from "./plan.js";
import { notDeclared, toSupply } from "./render.js";

/**
 * The plugin's download URL with this release's version filled in: `pulumi import` writes the
 * URL into the code it generates as a template string, where a `${VERSION}` left in it fails.
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the CLI's placeholder, replaced here.
const RELEASE_DOWNLOAD_URL = PLUGIN_DOWNLOAD_URL.replace("${VERSION}", PACKAGE_VERSION);

/**
 * A string as Pulumi YAML reads it literally: JSON-quoted (a valid YAML double-quoted scalar that
 * no value can break out of) with every `$` doubled, since Pulumi YAML interpolates `${...}` in
 * any string and reads `$$` as one `$`.
 */
export function yamlString(value: string): string {
  return stringLiteral(value.split("$").join("$$"));
}

/** A JSON value as a Pulumi YAML literal (flow style): strings as {@link yamlString}. */
export function yamlJson(value: Json): string {
  if (typeof value === "string") return yamlString(value);
  if (Array.isArray(value)) return `[${value.map(yamlJson).join(", ")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${stringLiteral(k)}: ${yamlJson(v)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}

/** A reference to another resource of the program: its `id` output, quoted (`{` opens a mapping in a flow list). */
const refText = (variable: string) => stringLiteral(`\${${variable}.id}`);

function yamlArg(arg: Arg): string {
  if ("ref" in arg) return refText(arg.ref.variable);
  if ("value" in arg) return yamlJson(arg.value);
  if ("secret" in arg) return stringLiteral(`\${${arg.secret.key}}`);
  return `[${arg.items.map((a) => ("ref" in a ? refText(a.ref.variable) : yamlJson(a.value))).join(", ")}]`;
}

/** The config keys of the agents' prompts, unique among the program's names: `<variable>Prompt`. */
function promptKeys(plan: PullPlan): Map<PlannedResource, string> {
  const taken = new Set(plan.resources.map((r) => r.variable));
  const keys = new Map<PlannedResource, string>();
  for (const r of plan.resources) {
    if (!("prompt" in r.args)) continue;
    let key = `${r.variable}Prompt`;
    for (let i = 2; taken.has(key); i++) key = `${r.variable}Prompt${i}`;
    taken.add(key);
    keys.set(r, key);
  }
  return keys;
}

/** The prompt of a planned agent, as the service holds it. */
function promptOf(r: PlannedResource): string {
  const arg = r.args.prompt;
  return arg && "value" in arg && typeof arg.value === "string" ? arg.value : "";
}

/** What `pull --format yaml` writes and stores. */
export interface YamlProject {
  /** The project's files by relative path. */
  files: Map<string, string>;
  /** Each prompt's config key and value, to be stored as a secret in the stack's config. */
  secrets: Map<string, string>;
}

/** The files of a pulled Pulumi YAML project and the secret config values it reads. */
export function yamlProject(plan: PullPlan, name: string): YamlProject {
  const keys = promptKeys(plan);
  const lines = [
    "# Written by `voiceagent pull --format yaml` from a live account. Every object below already exists",
    "# on the service and is adopted by its id (agentId, voiceId, actionId, webhookId; a number binding by",
    "# its number): the first `pulumi up` creates nothing and sets each object to the values written here.",
    "# Each agent's prompt is a secret config value of the stack (`pulumi config get <key>`), never text here.",
  ];
  lines.push(...notDeclared(plan, "#"));
  const supplied = secretsOf(plan);
  lines.push(...toSupply(supplied, "#"));
  lines.push(
    `name: ${stringLiteral(name)}`,
    `description: ${stringLiteral("Adopted from a live voice agent account by `voiceagent pull --format yaml`")}`,
    "runtime: yaml",
  );
  if (keys.size + supplied.length > 0) {
    lines.push("config:");
    for (const key of [...keys.values(), ...supplied.map((s) => s.key)])
      lines.push(`  ${key}:`, "    type: string", "    secret: true");
  }
  lines.push("resources:");
  let section: AccountCollection | undefined;
  for (const r of plan.resources) {
    if (r.collection !== section) {
      section = r.collection;
      lines.push(`  # ${HEADING[section]}`);
    }
    for (const n of r.notes) lines.push(`  # NOTE: ${commentText(n)}`);
    lines.push(`  ${r.variable}:`, `    type: voiceagent:${r.kind}`);
    if (r.name !== r.variable) lines.push(`    name: ${stringLiteral(r.name)}`);
    lines.push("    properties:");
    const key = keys.get(r);
    for (const [prop, arg] of Object.entries(r.args)) {
      lines.push(`      ${prop}: ${key && prop === "prompt" ? stringLiteral(`\${${key}}`) : yamlArg(arg)}`);
    }
  }
  const secrets = new Map([...keys].map(([r, key]) => [key, promptOf(r)]));
  return {
    files: new Map([
      ["Pulumi.yaml", `${lines.join("\n")}\n`],
      // The package declaration `pulumi package add voiceagent` writes in a YAML project: the
      // plugin's version and where the CLI downloads it from.
      [
        `sdks/voiceagent/voiceagent-${PACKAGE_VERSION}.yaml`,
        `packageDeclarationVersion: 1\nname: voiceagent\nversion: ${PACKAGE_VERSION}\ndownloadUrl: ${RELEASE_DOWNLOAD_URL}\n`,
      ],
    ]),
    secrets,
  };
}
