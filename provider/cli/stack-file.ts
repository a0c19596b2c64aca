// `voiceagent pull --format stack`: the account as data. The same plan as the pulled program, written
// as a stack file's `<project>:fleet` value (each object adopted by its `id`, references by key) and
// the three-line program that declares it, so the first `up` creates nothing.
import { checkFleet } from "../fleet/check.js";
import { SECTION } from "./kinds.js";
import type { Json } from "../schemas/json.js";
import { stringLiteral } from "./literal.js";
import type { Arg, PullPlan } from "./plan.js";
import { projectFiles } from "./project-files.js";

/** The program's argument names that the fleet spells otherwise: adoption ids are `id`, a line's agent is `agent`. */
const RENAMED: Record<string, string> = {
  voiceId: "id",
  actionId: "id",
  webhookId: "id",
  agentId: "id",
  inboundAgent: "agent",
};

/** A planned argument as fleet data: a literal as it is, a reference by the target's key (its resource name). */
function value(arg: Arg): Json {
  if ("items" in arg) return arg.items.map((i) => ("ref" in i ? i.ref.name : i.value));
  if ("secret" in arg) return { secret: arg.secret.key };
  return "ref" in arg ? arg.ref.name : arg.value;
}

/** The fleet value of a pull plan: each section keyed by the planned resource names. */
export function fleetOfPlan(plan: PullPlan): { [section: string]: { [key: string]: { [field: string]: Json } } } {
  const fleet: { [section: string]: { [key: string]: { [field: string]: Json } } } = {};
  for (const r of plan.resources) {
    const name = SECTION[r.collection];
    const section = fleet[name] ?? {};
    fleet[name] = section;
    section[r.name] = Object.fromEntries(Object.entries(r.args).map(([k, a]) => [RENAMED[k] ?? k, value(a)]));
  }
  return fleet;
}

/** A YAML mapping key: bare when YAML cannot read it as anything but that string, JSON-quoted otherwise. */
const yamlKey = (k: string) =>
  /^[A-Za-z][A-Za-z0-9_.-]*(:[A-Za-z0-9_.-]+)?$/.test(k) && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(k)
    ? k
    : stringLiteral(k);

/** A YAML scalar or flow collection: JSON is valid YAML, and a JSON string cannot break the document. */
const yamlValue = (v: Json): string => (typeof v === "string" ? stringLiteral(v) : JSON.stringify(v));

/** The stack file holding `fleet` under the project's namespace, in block style. */
export function renderStackFile(project: string, fleet: ReturnType<typeof fleetOfPlan>): string {
  const lines = [
    "# Adopted from a live voice agent account by `voiceagent pull --format stack`: each entry's `id` is the object it takes over.",
    "config:",
    `  ${yamlKey(`${project}:fleet`)}:`,
  ];
  for (const [section, entries] of Object.entries(fleet)) {
    lines.push(`    ${section}:`);
    for (const [key, fields] of Object.entries(entries)) {
      lines.push(`      ${yamlKey(key)}:`);
      for (const [field, v] of Object.entries(fields)) lines.push(`        ${yamlKey(field)}: ${yamlValue(v)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The program of a fleet project: the whole of it. */
export const FLEET_PROGRAM = [
  'import { Fleet, fleetFromConfig } from "pulumi-voiceagent";',
  "",
  "// Everything is declared in the stack file (Pulumi.<stack>.yaml), under `fleet`.",
  'const fleet = new Fleet("fleet", fleetFromConfig());',
  "export const ids = fleet.ids;",
  "",
].join("\n");

/**
 * The files of a pulled fleet project: the usual project files, the fleet
 * program, and `Pulumi.<stack>.yaml` with the account as the fleet value. Returns the problems the
 * fleet check finds instead when the account cannot be written as a fleet (never expected: the
 * plan already skips what the provider would refuse).
 */
export function fleetProjectFiles(
  plan: PullPlan,
  name: string,
  stack: string,
): { files: Map<string, string> } | { problems: string[] } {
  const fleet = fleetOfPlan(plan);
  const checked = checkFleet(fleet);
  if (!checked.ok) return { problems: checked.problems };
  // The template's program (the dynamic entry: it needs no plugin), so the stack file fits a project `pulumi new` made.
  const files = projectFiles(plan, name, false);
  files.set("index.ts", FLEET_PROGRAM);
  files.set(`Pulumi.${stack}.yaml`, renderStackFile(name, fleet));
  return { files };
}
