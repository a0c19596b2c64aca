// The project the current-API scenarios run in (test/e2e/current-*.test.ts): a TypeScript project
// named clinic outside the repository, with the packed provider (the dynamic entry), on a seeded
// emulator speaking the current API (2024). Every file of the scenarios declares the same
// package.json, so after the run's first install the others start from a copy of it
// (test/helpers/consumer.ts, install seeds) and npm finds nothing to fetch.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { AnswerModes, CallsOptions } from "voiceagent-emulator";
import {
  packageJson,
  REPO_ROOT,
  run,
  type RunResult,
  TEMPLATE_TSCONFIG,
  TS_DEV_DEPENDENCIES,
} from "../helpers/consumer.js";
import { type ConsumerContext, PULUMI, useConsumer } from "../consumer/lifecycle.js";

/**
 * The clinic project with a stack `dev` on its own emulator; `name` names the token and the temp
 * folder. `serviceDefaults`: the emulator answers with the service's defaults; `answers`: how it
 * words its answers (default: every field as sent); `calls`: calls progress and deliver their events;
 * `env`: for every command run in the project; `stack: false`: no stack dev (the test makes its own).
 */
export function useClinicProject(
  name: string,
  opts: {
    serviceDefaults?: boolean;
    answers?: AnswerModes;
    calls?: CallsOptions;
    env?: Record<string, string>;
    stack?: boolean;
  } = {},
): ConsumerContext {
  return useConsumer({
    name,
    api: "2024",
    ...opts,
    config: { "voiceagent:api": "2024" },
    project: (tarball) => ({
      files: {
        "Pulumi.yaml": "name: clinic\nruntime: nodejs\n",
        "package.json": packageJson({
          name: "clinic",
          dependencies: { "@pulumi/pulumi": PULUMI.latest, "pulumi-voiceagent": `file:${tarball}` },
          devDependencies: TS_DEV_DEPENDENCIES,
        }),
        "tsconfig.json": TEMPLATE_TSCONFIG,
        "index.ts": readFileSync(path.join(REPO_ROOT, "test/e2e/fixtures/clinic/index.ts"), "utf8"),
      },
    }),
  });
}

/** The files of the project's backend folder (every checkpoint, its history and backups) that hold `text`. */
export function backendFilesHolding(projectDir: string, text: string): string[] {
  const state = path.join(path.dirname(projectDir), "state");
  return readdirSync(state, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(state, f))
    .filter((f) => statSync(f).isFile() && readFileSync(f).includes(text));
}

/** Makes an object of a collection only the current API has, as the dashboard would; its id. */
export async function made(ctx: ConsumerContext, route: string, body: unknown): Promise<string> {
  const res = await fetch(`${ctx.emu.url}/v1/${route}/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${ctx.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  const id = typeof json === "object" && json !== null && "id" in json ? json.id : undefined;
  if (!res.ok || typeof id !== "string") throw new Error(`${route}/create answered ${res.status}`);
  return id;
}

/** `voiceagent` of the packed provider installed in the project, run there with the project's environment. */
export function voiceagentCli(ctx: ConsumerContext, args: string[]): Promise<RunResult> {
  const bin = path.join(ctx.c.dir, "node_modules/pulumi-voiceagent/dist/cli/main.js");
  return run(process.execPath, [bin, ...args], { cwd: ctx.c.dir, env: ctx.c.env });
}

/**
 * `pulumi up --yes --skip-preview` in the project, as Consumer.up runs it: its changes, what it printed, and the
 * messages of its diagnostics (the engine's JSON events hold them unwrapped).
 */
export async function upSaying(
  ctx: ConsumerContext,
  args: string[],
): Promise<RunResult & { changes: Record<string, number>; said: string }> {
  const r = await ctx.c.pulumi(["up", "--yes", "--skip-preview", "--json", ...args]);
  const events = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map(
      (l) =>
        JSON.parse(l) as {
          summaryEvent?: { resourceChanges?: Record<string, number> };
          diagnosticEvent?: { message: string };
        },
    );
  return {
    ...r,
    changes: events.find((e) => e.summaryEvent)?.summaryEvent?.resourceChanges ?? {},
    said: events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent.message] : [])).join("\n"),
  };
}
