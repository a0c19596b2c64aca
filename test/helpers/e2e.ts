import type { ConfigMap } from "@pulumi/pulumi/automation/index.js";
import { afterAll, beforeAll } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RateLimitOptions, type RunningEmulator } from "voiceagent-emulator";
import { createTestStack, type TestStack, type TestStackOptions } from "./pulumi-stack.js";

/** A seeded emulator on 127.0.0.1:0, a client for it, and a stack of `program` pointed at it. */
export interface EmulatorStack {
  emu: RunningEmulator;
  client: VoiceAgentClient;
  t: TestStack;
}

/**
 * Registers beforeAll/afterAll hooks that start the emulator and create the stack, and stop and
 * remove both. Credentials go in stack config (token as a secret), or in the environment with
 * `credentials: "env"`. `before` may prepare objects and return more config.
 */
export function useEmulatorStack(
  opts: Omit<TestStackOptions, "config" | "env"> & {
    token: string;
    credentials?: "config" | "env";
    config?: ConfigMap;
    /** The emulator's per-token rate limit (off when omitted). */
    rateLimit?: RateLimitOptions;
    /** The API the emulator serves (its default when omitted). */
    api?: "2023" | "2024";
    before?: (ctx: Omit<EmulatorStack, "t">) => Promise<ConfigMap | undefined>;
  },
): EmulatorStack {
  const ctx = {} as EmulatorStack;
  beforeAll(async () => {
    ctx.emu = await startEmulator({
      tokens: [opts.token],
      seed: true,
      rateLimit: opts.rateLimit,
      ...(opts.api ? { api: opts.api } : {}),
    });
    ctx.client = createClient({ baseUrl: ctx.emu.url, token: opts.token });
    const extra = (await opts.before?.(ctx)) ?? {};
    const viaEnv = opts.credentials === "env";
    ctx.t = await createTestStack({
      ...opts,
      config: {
        ...(viaEnv
          ? {}
          : { "voiceagent:baseUrl": { value: ctx.emu.url }, "voiceagent:token": { value: opts.token, secret: true } }),
        ...opts.config,
        ...extra,
      },
      ...(viaEnv ? { env: { VOICEAGENT_BASE_URL: ctx.emu.url, VOICEAGENT_TOKEN: opts.token } } : {}),
    });
  });
  afterAll(async () => {
    await ctx.t?.dispose();
    await ctx.emu?.close();
  });
  return ctx;
}

/** The operations of a change summary other than "same". */
export function changes(summary: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(summary).filter(([op, n]) => op !== "same" && n)) as Record<string, number>;
}

/** What a failed command printed (the automation API's error message), or that it succeeded. */
export function printedBy(command: Promise<unknown>): Promise<string> {
  return command.then(
    () => "it succeeded",
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
}
