// One stack per tenant through Pulumi's Automation API: `up` creates or updates each tenant's stack,
// `drift` previews each with a refresh (what changed on the service outside Pulumi), `destroy`
// deletes each tenant's objects and removes its stack. N tenants at a time; a line per tenant as it
// starts and ends, then a summary. Exit 1 when any tenant failed, 3 when none failed but some
// drifted, 0 otherwise.
//
//   node bin/provision.js up|drift|destroy TENANTS.json [--parallel N]
//
// The state goes where PULUMI_BACKEND_URL (or `pulumi login`) points: PostgreSQL, S3, the Pulumi
// Cloud or a folder. Secrets are encrypted by the passphrase (PULUMI_CONFIG_PASSPHRASE) unless
// TENANTS_SECRETS_PROVIDER names another provider (awskms://..., gcpkms://..., hashivault://...).
// The service: VOICEAGENT_BASE_URL and VOICEAGENT_TOKEN, one account for every tenant.
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  type EngineEvent,
  LocalWorkspace,
  type OpMap,
  Stack,
  StackAlreadyExistsError,
  StackNotFoundError,
} from "@pulumi/pulumi/automation";

/** One tenant as the list gives it. */
interface Tenant {
  /** The stack's name: letters, digits, `-`, `_` and `.`. */
  name: string;
  prompt: string;
  /** An Azure voice name, e.g. en-US-JennyNeural. */
  voice: string;
  /** The agent's display name. */
  agent: string;
  /** The tenant's number (E.164), already held by the account. */
  number: string;
}

type Action = "up" | "drift" | "destroy";

/** How one tenant ended. */
interface Outcome {
  tenant: string;
  result: "converged" | "drifted" | "destroyed" | "failed";
  /** The changes made or seen ("create 3", "update 1"); for drift, the resources that differ; for a failure, why. */
  detail: string;
  seconds: number;
}

const PROJECT_DIR = path.resolve(__dirname, "..");

function usage(problem: string): never {
  console.error(`${problem}\nusage: node bin/provision.js up|drift|destroy TENANTS.json [--parallel N]`);
  process.exit(2);
}

function parseArgs(argv: string[]): { action: Action; file: string; parallel: number } {
  const [action, file, ...rest] = argv;
  if (action !== "up" && action !== "drift" && action !== "destroy") usage(`unknown action "${action ?? ""}"`);
  if (!file) usage("no tenants file given");
  let parallel = 4;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--parallel") parallel = Number(rest[++i]);
    else usage(`unknown option "${rest[i]}"`);
  }
  if (!Number.isInteger(parallel) || parallel < 1) usage("--parallel takes a whole number of at least 1");
  return { action, file, parallel };
}

/** The tenants of `file`, every problem named at once (nothing runs on a list with one). */
function readTenants(file: string): Tenant[] {
  const list: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(list)) usage(`${file} must hold a JSON array of tenants`);
  const problems: string[] = [];
  const seen = new Set<string>();
  const tenants = list.map((item: unknown, i): Tenant => {
    const t = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const field = (key: keyof Tenant) => {
      const v = t[key];
      if (typeof v !== "string" || v === "") problems.push(`tenant ${i}: "${key}" must be a non-empty string`);
      return typeof v === "string" ? v : "";
    };
    const tenant = {
      name: field("name"),
      prompt: field("prompt"),
      voice: field("voice"),
      agent: field("agent"),
      number: field("number"),
    };
    if (tenant.name && !/^[A-Za-z0-9_.-]+$/.test(tenant.name))
      problems.push(`tenant ${i}: name "${tenant.name}" is not a stack name (letters, digits, - _ .)`);
    if (seen.has(tenant.name)) problems.push(`tenant ${i}: name "${tenant.name}" is given twice`);
    seen.add(tenant.name);
    return tenant;
  });
  if (problems.length) usage(`${file}:\n  ${problems.join("\n  ")}`);
  return tenants;
}

function requiredEnv(name: string): string {
  const v = process.env[name];
  if (!v) usage(`${name} is not set`);
  return v;
}

/**
 * The tenant's stack in the one workspace of this project (one `pulumi version` check for all):
 * selected when `existing` (the project's stacks, listed once per run) has it, else created by
 * `up`. One CLI command either way, where `Stack.createOrSelect` runs `pulumi stack select` first,
 * which fails for every new stack before its `pulumi stack init`. A stack made or removed by
 * someone else since the listing gets the other command. With its config (the token and the
 * prompt as secrets) in one `pulumi config set-all`: set on every run, since a DIY backend keeps
 * config in the project folder, which a pipeline's fresh checkout does not have.
 */
async function stackOf(
  workspace: LocalWorkspace,
  action: Action,
  tenant: Tenant,
  existing: ReadonlySet<string>,
): Promise<Stack> {
  const select = () => Stack.select(tenant.name, workspace);
  const create = () => Stack.create(tenant.name, workspace);
  const stack = await (existing.has(tenant.name)
    ? select().catch((error: unknown) => {
        if (action === "up" && error instanceof StackNotFoundError) return create();
        throw error;
      })
    : action === "up"
      ? create().catch((error: unknown) => {
          if (error instanceof StackAlreadyExistsError) return select();
          throw error;
        })
      : // Not listed: `drift` and `destroy` fail with the CLI's own "no stack named ..." unless it was made since.
        select());
  withoutReadBack(stack);
  await stack.setAllConfig({
    "voiceagent:baseUrl": { value: requiredEnv("VOICEAGENT_BASE_URL") },
    "voiceagent:token": { value: requiredEnv("VOICEAGENT_TOKEN"), secret: true },
    "voiceagent-tenants:prompt": { value: tenant.prompt, secret: true },
    "voiceagent-tenants:voice": { value: tenant.voice },
    "voiceagent-tenants:agent": { value: tenant.agent },
    "voiceagent-tenants:number": { value: tenant.number },
  });
  return stack;
}

/**
 * After an `up` the Automation API reads the stack back: its outputs twice (masked, then with the
 * secrets) and the update's summary from the history; after a `destroy` the summary. Three CLI
 * starts per tenant, each opening the backend and deriving the passphrase's key again. This
 * program reads neither: it prints the changes of the engine's own summary event, which it
 * watches anyway (see `watcher`). So its stacks answer those two reads with nothing, and nothing
 * else here calls them. A program that wants the outputs leaves them be, or reads them once itself.
 */
function withoutReadBack(stack: Stack): Stack {
  stack.outputs = async () => ({});
  stack.info = async () => undefined;
  return stack;
}

/** "create 3, same 1": the changes of a summary, "no change" when none. */
function described(changes: Record<string, number> | undefined): string {
  if (!changes) return "the engine sent no summary";
  const made = Object.entries(changes).filter(([op, n]) => op !== "same" && n > 0);
  return made.length ? made.map(([op, n]) => `${op} ${n}`).join(", ") : "no change";
}

/** The steps that change an object (a refresh's own "refresh" steps and "same" do not; a replace is one step). */
const CHANGES = new Set(["create", "update", "replace", "delete"]);

/**
 * Collects the engine's error diagnostics, the resources a preview would change and the changes
 * of the operation's summary (counted as the stack's history counts them), as they come.
 */
function watcher() {
  const errors: string[] = [];
  const changed: string[] = [];
  const summary: { changes?: OpMap } = {};
  const onEvent = (e: EngineEvent) => {
    if (e.summaryEvent) summary.changes = e.summaryEvent.resourceChanges;
    const d = e.diagnosticEvent;
    if (d?.severity === "error") errors.push(d.message.trim());
    const step = e.resourcePreEvent?.metadata;
    if (step && CHANGES.has(step.op) && step.type !== "pulumi:pulumi:Stack")
      changed.push(`${step.urn.split("::").pop()} (${step.op})`);
  };
  return { onEvent, errors, changed, summary };
}

/** Why a command failed, in a line or two: the engine's own error, else the end of the CLI's message. */
function why(error: unknown, diagnostics: string[]): string {
  const first = diagnostics.find((d) => !/^update failed$|^preview failed$/i.test(d));
  if (first) return first.split("\n").slice(0, 3).join(" ");
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split("\n").filter((l) => l.trim() && !l.startsWith("code:") && !l.startsWith("stdout:"));
  return lines.slice(-2).join(" ").slice(0, 400);
}

async function run(
  workspace: LocalWorkspace,
  action: Action,
  tenant: Tenant,
  existing: ReadonlySet<string>,
): Promise<Outcome> {
  const started = performance.now();
  const w = watcher();
  const end = (result: Outcome["result"], detail: string): Outcome => ({
    tenant: tenant.name,
    result,
    detail,
    seconds: (performance.now() - started) / 1000,
  });
  try {
    const stack = await stackOf(workspace, action, tenant, existing);
    if (action === "up") {
      await stack.up({ onEvent: w.onEvent });
      return end("converged", described(w.summary.changes));
    }
    if (action === "drift") {
      // A refresh preview: reads every object and compares it with the program, changing nothing.
      const r = await stack.preview({ refresh: true, onEvent: w.onEvent });
      const counted = Object.entries(r.changeSummary).filter(([op, n]) => CHANGES.has(op) && (n ?? 0) > 0);
      return w.changed.length || counted.length
        ? end("drifted", w.changed.join(", ") || described(Object.fromEntries(counted)))
        : end("converged", "no change");
    }
    await stack.destroy({ onEvent: w.onEvent });
    await stack.workspace.removeStack(tenant.name);
    return end("destroyed", described(w.summary.changes));
  } catch (error) {
    return end("failed", why(error, w.errors));
  }
}

/** Runs `action` for every tenant, `parallel` at a time, printing each as it starts and ends. */
async function runAll(action: Action, tenants: Tenant[], parallel: number): Promise<Outcome[]> {
  const secretsProvider = process.env.TENANTS_SECRETS_PROVIDER;
  const workspace = await LocalWorkspace.create({
    workDir: PROJECT_DIR,
    ...(secretsProvider ? { secretsProvider } : {}),
    // Pulumi's postgres:// backend lists stacks ten at a time, two connections each, from a pool of
    // two a core: on a machine of few cores `pulumi stack ls` of a dozen stacks waits forever
    // (docs/teams.md). One at a time it lists them in under a second; a value of yours wins.
    envVars: { PULUMI_DIY_BACKEND_PARALLEL: process.env.PULUMI_DIY_BACKEND_PARALLEL ?? "1" },
  });
  // The project's stacks, listed once (which tenants have one already). This also opens the backend
  // before the tenants run at once: Pulumi's postgres:// backend creates its table on first use,
  // and several CLI processes doing that together on a fresh database fail ("duplicate key value
  // violates unique constraint pg_type_typname_nsp_index"). On a DIY backend the names are bare
  // within the project; on the Pulumi Cloud they may carry the organization and project.
  const existing = new Set((await workspace.listStacks()).map((s) => s.name.split("/").pop() ?? s.name));
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tenants.length) {
      const tenant = tenants[next++] as Tenant;
      console.log(`[${tenant.name}] ${action}: started`);
      const o = await run(workspace, action, tenant, existing);
      console.log(`[${tenant.name}] ${action}: ${o.result} (${o.detail}) in ${o.seconds.toFixed(1)} s`);
      outcomes.push(o);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, tenants.length) }, worker));
  return tenants.map((t) => outcomes.find((o) => o.tenant === t.name) as Outcome);
}

async function main(): Promise<void> {
  const { action, file, parallel } = parseArgs(process.argv.slice(2));
  const tenants = readTenants(file);
  requiredEnv("VOICEAGENT_BASE_URL");
  requiredEnv("VOICEAGENT_TOKEN");
  const started = performance.now();
  const outcomes = await runAll(action, tenants, parallel);
  const count = (r: Outcome["result"]) => outcomes.filter((o) => o.result === r);
  console.log(
    `\nsummary: ${action} of ${tenants.length} tenants, ${parallel} at a time, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const result of ["converged", "destroyed", "drifted", "failed"] as const) {
    const these = count(result);
    if (these.length === 0) continue;
    console.log(`  ${result} (${these.length}):`);
    for (const o of these) console.log(`    ${o.tenant}: ${o.detail}`);
  }
  process.exitCode = count("failed").length ? 1 : count("drifted").length ? 3 : 0;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
