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
const RENAMED: Record<string, Record<string, string>> = {
  Voice: { voiceId: "id" },
  Action: { actionId: "id" },
  Webhook: { webhookId: "id" },
  Agent: { agentId: "id" },
  Prompt: { promptId: "id" },
  VectorDatabase: { vectorDatabaseId: "id" },
  AccountConnection: { accountConnectionId: "id" },
  PhoneNumber: { inboundAgent: "agent" },
  LinkedNumber: { inboundAgent: "agent" },
};

/** A planned argument as fleet data: a literal as it is, a reference by the target's key (its resource name). */
function value(arg: Exclude<Arg, { secret: unknown }>): Json {
  if ("items" in arg) return arg.items.map((i) => ("ref" in i ? i.ref.name : i.value));
  return "ref" in arg ? arg.ref.name : arg.value;
}

/**
 * A planned resource's fields in the fleet: renamed as the fleet spells them, a linked number's
 * connection under `link`, and no secret (the stack file holds none as plain text: each is set
 * with `pulumi config set --path --secret`, see {@link fleetSecrets}).
 */
function fleetFields(r: PullPlan["resources"][number]): { [field: string]: Json } {
  const fields: { [field: string]: Json } = {};
  for (const [k, a] of Object.entries(r.args)) {
    if ("secret" in a) continue;
    fields[RENAMED[r.kind]?.[k] ?? k] = value(a);
  }
  if (r.kind !== "LinkedNumber") return fields;
  const { telephonyAccountConnection, outboundOnly, ...line } = fields;
  return {
    ...line,
    link: { connection: telephonyAccountConnection ?? null, ...(outboundOnly === undefined ? {} : { outboundOnly }) },
  };
}

/** The fleet value of a pull plan: each section keyed by the planned resource names. */
export function fleetOfPlan(plan: PullPlan): { [section: string]: { [key: string]: { [field: string]: Json } } } {
  const fleet: { [section: string]: { [key: string]: { [field: string]: Json } } } = {};
  for (const r of plan.resources) {
    const name = SECTION[r.collection];
    const section = fleet[name] ?? {};
    fleet[name] = section;
    section[r.name] = fleetFields(r);
  }
  return fleet;
}

/** The secrets of a pulled fleet, each as the `--path` of the stack file's value that holds it, and what to supply. */
export function fleetSecrets(plan: PullPlan, project: string): { path: string; what: string }[] {
  return plan.resources.flatMap((r) =>
    Object.entries(r.args).flatMap(([k, a]) =>
      "secret" in a ? [{ path: `${project}:fleet.${SECTION[r.collection]}.${r.name}.${k}`, what: a.secret.what }] : [],
    ),
  );
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
