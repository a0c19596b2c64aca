// What every consumer test shares: a seeded emulator in the test process, a project outside the
// repository with the packed provider installed, a stack pointed at the emulator, and the
// deployment a user's pipeline runs (up, preview --expect-no-changes, a change, destroy).
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { type AnswerModes, type CallsOptions, startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { createConsumer, REPO_ROOT, run, type Consumer, type ConsumerOptions } from "../helpers/consumer.js";
import { downloadEnv, startReleaseServer, type ReleaseServer } from "../helpers/release-server.js";
import { VERSIONS } from "../helpers/versions.js";

const providerManifest = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/package.json"), "utf8")) as {
  peerDependencies: Record<string, string>;
};

/** The @pulumi/pulumi versions the consumer tests install: the newest on npm and our lower bound. */
export const PULUMI = {
  latest: VERSIONS.nodejs,
  lowest: /^>=(\S+)/.exec(providerManifest.peerDependencies["@pulumi/pulumi"] ?? "")?.[1] ?? "",
  /** Just below the range: the version check must refuse it. */
  tooOld: "3.138.0",
};

/** The program every consumer kind deploys, written as that kind writes it. */
export function program(kind: "ts" | "esm" | "js"): string {
  const body = (va: string) => `
const config = new pulumi.Config();
const voice = new ${va}Voice("voice", { voiceName: "alloy", pitch: 0, rate: 1 });
const agent = new ${va}Agent("receptionist", {
  prompt: "You are a friendly receptionist. Take a message and end the call politely.",
  initialMessage: config.get("greeting") ?? "Hello, front desk.",
  voice: voice.id,
});
const line = new ${va}PhoneNumber("front-desk", { number: config.require("number"), inboundAgent: agent.id });
`;
  if (kind === "js") {
    return `"use strict";\nconst pulumi = require("@pulumi/pulumi");\nconst va = require("pulumi-voiceagent");\n${body("va.")}
exports.agentId = agent.id;\nexports.numberActive = line.active;\n`;
  }
  const imports =
    kind === "esm"
      ? `import * as pulumi from "@pulumi/pulumi";\nimport { Agent, PhoneNumber, Voice, type PhoneNumberArgs } from "pulumi-voiceagent";\n`
      : `import * as pulumi from "@pulumi/pulumi";\nimport * as va from "pulumi-voiceagent";\n`;
  const typed = kind === "esm" ? "PhoneNumberArgs" : "va.PhoneNumberArgs";
  return `${imports}${body(kind === "esm" ? "" : "va.")}
// The public argument types are usable on their own.
const spare: ${typed} = { number: "+15550010004", inboundAgent: agent.id };
export const spareNumber = spare.number;
export const agentId = agent.id;
export const numberActive = line.active;
`;
}

/**
 * The config of the program of {@link program}: the number it binds, in the project's namespace. Given
 * to useConsumer's `config`, it is set with the credentials, in the stack's one `config set-all`.
 */
export function numberConfig(project: string, number: string): Record<string, string> {
  return { [`${project}:number`]: number };
}

/** A consumer project with a stack named dev on a seeded emulator. */
export interface ConsumerContext {
  c: Consumer;
  emu: RunningEmulator;
  client: VoiceAgentClient;
  token: string;
  /** Milliseconds the install took. */
  installMs: number;
  /** Whether npm started from a copy of an identical install made earlier in this run. */
  installSeeded: boolean;
  /** With `downloads`: the release server the CLI may download plugins from, and its PULUMI_HOME. */
  release?: { server: ReleaseServer; home: string };
}

/**
 * Registers hooks that start the emulator, create and install the project from the packed
 * tarball, and init the stack with credentials in config (token secret) or, with
 * `credentials: "env"`, in the environment; and remove it all. With `downloads`, the CLI may
 * install plugins by itself, from a release server serving the release folder, into an empty PULUMI_HOME.
 */
export function useConsumer(opts: {
  name: string;
  project: (tarball: string) => Omit<ConsumerOptions, "name" | "env">;
  config?: Record<string, string>;
  credentials?: "config" | "env";
  downloads?: boolean;
  /** The API generation the emulator speaks (default: the interface's, 2023). */
  api?: "2023" | "2024";
  /** The emulator answers with the service's defaults for fields a request left out (emulator/service-defaults.ts). */
  serviceDefaults?: boolean;
  /** How the emulator words its answers (default: every field as sent). */
  answers?: AnswerModes;
  /** Calls that progress and deliver their events (emulator/calls/bench.ts; off by default). */
  calls?: CallsOptions;
  /** Extra environment for every command run in the project (e.g. PULUMI_NODEJS_TRANSPILE_ONLY). */
  env?: Record<string, string>;
  /** false: no stack dev (the test makes the stacks it uses: each init and secret config is a CLI start and more). */
  stack?: boolean;
}): ConsumerContext {
  const ctx = {} as ConsumerContext;
  beforeAll(async () => {
    ctx.token = `consumer-${opts.name}-${randomUUID()}`;
    ctx.emu = await startEmulator({
      tokens: [ctx.token],
      seed: true,
      ...(opts.api ? { api: opts.api } : {}),
      ...(opts.serviceDefaults ? { serviceDefaults: true } : {}),
      ...(opts.answers ? { answers: opts.answers } : {}),
      ...(opts.calls ? { calls: opts.calls } : {}),
    });
    ctx.client = createClient({ baseUrl: ctx.emu.url, token: ctx.token });
    const viaEnv = opts.credentials === "env";
    if (opts.downloads) {
      ctx.release = {
        server: await startReleaseServer(inject("releaseDir")),
        home: mkdtempSync(path.join(os.tmpdir(), "va-pulumi-home-")),
      };
    }
    ctx.c = createConsumer({
      name: opts.name,
      ...opts.project(inject("providerTarball")),
      env: {
        ...opts.env,
        ...(viaEnv ? { VOICEAGENT_BASE_URL: ctx.emu.url, VOICEAGENT_TOKEN: ctx.token } : {}),
        ...(ctx.release ? downloadEnv(ctx.release.server, ctx.release.home) : {}),
      },
    });
    const started = performance.now();
    ctx.installSeeded = (await ctx.c.install()).seeded;
    ctx.installMs = performance.now() - started;
    if (opts.stack === false) return;
    await ctx.c.pulumi(["stack", "init", "dev"]);
    await ctx.c.config({
      ...(viaEnv ? {} : { "voiceagent:baseUrl": ctx.emu.url, "voiceagent:token": { value: ctx.token, secret: true } }),
      ...opts.config,
    });
  }, 240_000);
  afterAll(async () => {
    ctx.c?.dispose();
    await ctx.emu?.close();
    await ctx.release?.server.close();
    if (ctx.release) rmSync(ctx.release.home, { recursive: true, force: true });
  });
  return ctx;
}

/**
 * Runs `tsc --noEmit` in the project with its own TypeScript and tsconfig. Failures are grouped by
 * file and code (a type error inside a dependency repeats per line).
 */
export async function typeCheck(ctx: ConsumerContext): Promise<void> {
  const tsc = "node_modules/typescript/bin/tsc";
  const r = await run(process.execPath, [tsc, "--noEmit", "--pretty", "false"], { cwd: ctx.c.dir, env: ctx.c.env });
  const groups = new Map<string, { count: number; first: string }>();
  for (const m of r.stdout.matchAll(/^(.+?)\(\d+,\d+\): error (TS\d+): (.*)$/gm)) {
    const key = `${m[1]} ${m[2]}`;
    const g = groups.get(key);
    groups.set(key, { count: (g?.count ?? 0) + 1, first: g?.first ?? m[3] ?? "" });
  }
  const summary = [...groups].map(([key, g]) => `${key} x${g.count}: ${g.first}`);
  expect(summary, "tsc --noEmit in the consumer project").toEqual([]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

/**
 * The first `up` of the program of {@link program} in a project of another kind (ESM, JavaScript,
 * pnpm): the program loads, its dynamic providers load the package by name from that layout and
 * reach the service (the client's own dependencies included), and the number is bound. The rest of
 * a deployment's life does not depend on the kind of project: {@link deployLifecycle} runs it once,
 * in the CommonJS project. The stack's config sets `<project>:number` to `number` already
 * ({@link numberConfig} in useConsumer's `config`: its one `config set-all`).
 */
export async function deployOnce(ctx: ConsumerContext, number: string): Promise<void> {
  const { c, client } = ctx;
  expect(await c.up()).toEqual({ create: 4 });
  const outputs = await c.outputs();
  expect(outputs.numberActive).toBe(true);
  expect((await client.numbers.get(number)).inbound_agent?.id).toBe(outputs.agentId);
}

/**
 * What a pipeline does with the program of {@link program}: up creates the four resources and
 * binds the number; preview --expect-no-changes passes; a config change updates the agent in
 * place; the token is nowhere in state; destroy unbinds the number. As for {@link deployOnce}, the
 * stack's config sets the number already.
 */
export async function deployLifecycle(ctx: ConsumerContext, project: string, number: string): Promise<void> {
  const { c, client } = ctx;
  expect(await c.up()).toEqual({ create: 4 });
  const outputs = await c.outputs();
  expect(outputs.numberActive).toBe(true);
  expect((await client.numbers.get(number)).inbound_agent?.id).toBe(outputs.agentId);

  await c.pulumi(["preview", "--expect-no-changes"]);

  await c.config({ [`${project}:greeting`]: "Good morning, front desk." });
  expect(await c.up()).toEqual({ update: 1, same: 3 });
  expect((await client.agents.get(String(outputs.agentId))).initial_message).toBe("Good morning, front desk.");

  const state = await c.pulumi(["stack", "export"]);
  expect(state.stdout).not.toContain(ctx.token);

  expect(await c.destroy()).toEqual({ delete: 4 });
  expect((await client.numbers.get(number)).inbound_agent).toBeNull();
}
