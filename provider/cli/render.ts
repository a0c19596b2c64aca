import { ADOPT_ARGS } from "./import-file.js";
import { commentText, jsonLiteral, stringLiteral } from "./literal.js";
import { type Arg, type PlannedResource, type PullPlan, secretsOf } from "./plan.js";
import { HEADING, SINGULAR, type AccountCollection } from "./kinds.js";

const INDENT = "    ";
/** The program's config object the secret arguments are read from. */
const SUPPLIED = "supplied";

function argText(arg: Arg, indent: string): string {
  if ("ref" in arg) return `${arg.ref.variable}.id`;
  if ("value" in arg) return jsonLiteral(arg.value, indent);
  if ("secret" in arg) return `${SUPPLIED}.requireSecret(${stringLiteral(arg.secret.key)})`;
  if (arg.items.length === 0) return "[]";
  const inner = `${indent}${INDENT}`;
  return `[\n${arg.items.map((a) => `${inner}${argText(a, inner)},\n`).join("")}${indent}]`;
}

function resourceText(r: PlannedResource, imported: boolean): string {
  const notes = r.notes.map((n) => `// NOTE: ${commentText(n)}\n`).join("");
  const args = Object.entries(r.args)
    .filter(([key]) => !(imported && ADOPT_ARGS.has(key)))
    .map(([key, arg]) => `${INDENT}${key}: ${argText(arg, INDENT)},\n`)
    .join("");
  return `${notes}const ${r.variable} = new va.${r.kind}(${stringLiteral(r.name)}, {\n${args}});\n`;
}

/**
 * The comment lines, behind `marker` ("//", "#"), naming each object of the account that a pulled
 * program does not declare and why; none when every object is declared.
 */
export function notDeclared(plan: PullPlan, marker: string): string[] {
  if (plan.skipped.length === 0) return [];
  return [
    marker,
    `${marker} Not declared:`,
    ...plan.skipped.map((s) => `${marker}   ${SINGULAR[s.collection]} ${s.id}: ${commentText(s.reason)}`),
  ];
}

/**
 * The comment lines, behind `marker`, naming each secret the program reads from the stack's
 * config and what the user must supply there: the service's secrets are never pulled as values.
 */
export function toSupply(secrets: readonly { key: string; what: string }[], marker: string): string[] {
  if (secrets.length === 0) return [];
  return [
    marker,
    `${marker} Secrets to supply before \`pulumi up\` (never pulled: the service may not even show them):`,
    ...secrets.map((s) => `${marker}   pulumi config set --secret ${s.key}   # ${commentText(s.what)}`),
  ];
}

/**
 * The pulled program's index.ts. Every object is adopted by its id, so the first `pulumi up`
 * creates nothing; values are literals escaped for TypeScript, references are `<variable>.id`.
 * `imported`: the program of `pull --import-file`, on the native entry and without adoption ids,
 * declaring what `pulumi import --file` brought into the stack.
 */
export function renderProgram(plan: PullPlan, imported = false): string {
  const lines: string[] = imported
    ? [
        "// Written by `voiceagent pull --import-file` from a live account. Every object below already exists",
        "// on the service: `pulumi import --file <the import file> --generate-code=false` brings them into the",
        "// stack under these names, after which `pulumi preview` should show no changes.",
      ]
    : [
        "// Written by `voiceagent pull` from a live account. Every object below already exists on the service",
        "// and is adopted by its id (agentId, voiceId, actionId, webhookId; a number binding by its number):",
        "// the first `pulumi up` creates nothing and sets each object to the values written here.",
        "// Review them, then run `pulumi up`; `pulumi preview` afterwards should show no changes.",
      ];
  lines.push(...notDeclared(plan, "//"));
  const secrets = secretsOf(plan);
  lines.push(...toSupply(secrets, "//"));
  lines.push("");
  if (secrets.length) lines.push('import * as pulumi from "@pulumi/pulumi";');
  lines.push(`import * as va from "pulumi-voiceagent${imported ? "/native" : ""}";`, "");
  if (secrets.length) lines.push(`const ${SUPPLIED} = new pulumi.Config();`, "");
  let section: AccountCollection | undefined;
  for (const r of plan.resources) {
    if (r.collection !== section) {
      section = r.collection;
      lines.push(`// ${HEADING[section]}`, "");
    }
    lines.push(resourceText(r, imported));
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
