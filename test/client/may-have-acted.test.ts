// A retried write may have acted when ANY of its attempts may have (client/transport.ts), not only
// its last: a cancel whose first attempt was carried out and lost its reply, and whose retries were
// throttled (429, "not processed"), still cancelled the number. The error must say so, and what to
// run; "The service did not act on it" about an act that cannot be undone is the failure.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiRateLimitError, createClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { Host } from "../../provider/host.js";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";

let emu: RunningEmulator | undefined;
afterEach(async () => emu?.close());
// Each test is its own deployment: a host of its own.
let host = new Host();
beforeEach(() => {
  host = new Host();
});

/** The first cancel is committed and its reply lost; every later one is throttled. */
const actsThenThrottled = [
  { route: "/v1/numbers/cancel", method: "POST" as const, phase: "after" as const, reset: true, count: 1 },
  { route: "/v1/numbers/cancel", method: "POST" as const, status: 429, skip: 1 },
];

describe("a cancel whose first attempt acted and lost its reply, and whose retries got 429", () => {
  it("the client's error says the service may have acted; the number was cancelled", async () => {
    const token = "acted-client";
    emu = await startEmulator({ tokens: [token], seed: true, faults: actsThenThrottled });
    const number = emu.seeds.get(token)!.numbers[0]!;
    // A short budget: 429s are retried until it is spent, not `limit` times.
    const retry = { baseDelayMs: 1, maxDelayMs: 5, limit: 3, budgetMs: 1_000 };
    const client = createClient({ baseUrl: emu.url, token, retry });
    const err: unknown = await client.numbers.cancel(number).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRateLimitError);
    expect(String(err)).toMatch(/may have/);
    // The order the test relies on happened: one attempt carried out, the rest throttled.
    expect(emu.stats.faults.after["POST /v1/numbers/cancel"]).toBe(1);
    const throttled = emu.stats.faults.before["POST /v1/numbers/cancel"] ?? 0;
    expect(throttled).toBeGreaterThanOrEqual(1);
    expect(err).toMatchObject({ mayHaveActed: true, attempts: 1 + throttled });
    expect((await client.numbers.get(number)).active).toBe(false);
  });

  it("destroy's error says the service may have cancelled it and what to run, never that it did not act", async () => {
    const token = "acted-provider";
    emu = await startEmulator({ tokens: [token], seed: true, faults: actsThenThrottled });
    const number = emu.seeds.get(token)!.numbers[1]!;
    const id = (await createClient({ baseUrl: emu.url, token }).numbers.get(number)).id;
    // A short budget: the retries stop once it is spent (the 429s would go on for ever).
    const config = new Map([["voiceagent:operationTimeout", "2s"]]);
    const settings = { baseUrl: emu.url, token, config: { get: (k: string) => config.get(k) } };
    const err: unknown = await runtimeFor("PurchasedNumber", host)
      .delete(settings, id, { number, active: true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const said = String(err);
    expect(said).toMatch(/voiceagent:PurchasedNumber delete failed/);
    expect(said).not.toMatch(/did not act/);
    expect(said).toMatch(/may have/);
    expect(said).toMatch(/pulumi refresh/);
    expect(emu.stats.faults.after["POST /v1/numbers/cancel"]).toBe(1);
    expect(emu.stats.faults.before["POST /v1/numbers/cancel"]).toBeGreaterThanOrEqual(1);
  });
});
