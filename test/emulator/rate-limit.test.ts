import { afterEach, describe, expect, it } from "vitest";
import { buildEmulator, type Emulator } from "../../emulator/index.js";
import { RateLimiter } from "../../emulator/rate-limit.js";
import { spawnEmulator } from "../helpers/emulator-process.js";

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.app.close();
  emu = undefined;
});

const get = (e: Emulator, url: string, token: string) =>
  e.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });

describe("the emulator's rate limit", () => {
  it("lets a token's burst through, then answers 429 with Retry-After before any work, per token, counted in stats", async () => {
    // Half a request a second: the bucket cannot refill between these requests however slow the machine.
    emu = await buildEmulator({ tokens: ["a", "b"], seed: true, rateLimit: { perSecond: 0.5, burst: 3 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(emu, "/v1/voices/list", "a")).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await emu.app.inject({
      method: "POST",
      url: "/v1/agents/create",
      headers: { authorization: "Bearer a", "content-type": "application/json" },
      payload: { prompt: "p" },
    });
    expect(refused.statusCode).toBe(429);
    // One request short, refilling at 0.5 a second: 2 s.
    expect(refused.headers["retry-after"]).toBe("2");
    expect(refused.json()).toEqual({ detail: expect.stringMatching(/rate limit/i) });
    // Another token has a bucket of its own; the test's own /admin calls are not limited.
    expect((await get(emu, "/v1/voices/list", "b")).statusCode).toBe(200);
    expect((await get(emu, "/admin/stats", "a")).statusCode).toBe(200);
    expect(emu.stats.rateLimited).toEqual({ "POST /v1/agents/create": 1 });
    expect(emu.stats.writes).toEqual({});
    expect(emu.stats.total).toBe(5);
    emu.resetStats();
    expect(emu.stats.rateLimited).toEqual({});
  });

  it("is off by default", async () => {
    emu = await buildEmulator({ tokens: ["a"] });
    for (let i = 0; i < 50; i++) expect((await get(emu, "/v1/voices/list", "a")).statusCode).toBe(200);
    expect(emu.stats.rateLimited).toEqual({});
  });

  it("refills at the rate it was given, up to the burst", () => {
    let now = 0;
    const limiter = new RateLimiter({ perSecond: 4, burst: 2 }, () => now);
    expect([limiter.take("t"), limiter.take("t"), limiter.take("t")]).toEqual([undefined, undefined, 1]);
    now = 250; // one request's worth
    expect([limiter.take("t"), limiter.take("t")]).toEqual([undefined, 1]);
    now = 10_000; // a long quiet spell refills to the burst, not beyond
    expect([limiter.take("t"), limiter.take("t"), limiter.take("t")]).toEqual([undefined, undefined, 1]);
    expect(() => new RateLimiter({ perSecond: 0 })).toThrow(/perSecond/);
  });

  it("is set from the CLI with --rate-limit R/B", async () => {
    const p = await spawnEmulator(["--port", "0", "--token", "cli-limit", "--rate-limit", "0.5/1"]);
    const headers = { authorization: "Bearer cli-limit" };
    expect((await fetch(`${p.url}/v1/voices/list`, { headers })).status).toBe(200);
    const second = await fetch(`${p.url}/v1/voices/list`, { headers });
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("2");
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
  });
});
