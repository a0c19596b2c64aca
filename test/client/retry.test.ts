import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, createClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";

let emu: RunningEmulator | undefined;
let server: RecordingServer | undefined;
afterEach(async () => {
  await emu?.close();
  await server?.close();
});
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

describe("retries", () => {
  it("a read answered 503 is retried and succeeds", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/voices", status: 503, count: 2 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const id = emu.seeds.get("r")!.voices[0]!;
    const events: string[] = [];
    const logged = createClient({ baseUrl: emu.url, token: "r", ...fast, onRequest: (e) => events.push(`${e.event}:${e.status}`) });
    expect((await logged.voices.get(id)).id).toBe(id);
    expect(events).toEqual(["retry:503", "retry:503", "response:200"]);
    expect((await client.voices.get(id)).id).toBe(id);
    expect(emu.stats.byRoute["GET /v1/voices"]).toBe(4);
  });

  it("a create answered 503 is not retried: no duplicate agent", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/agents/create", status: 503, count: 1 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const voice = emu.seeds.get("r")!.voices[0]!;
    await expect(client.agents.create({ prompt: "p", voice })).rejects.toMatchObject({ status: 503, attempts: 1 });
    expect(emu.stats.byRoute["POST /v1/agents/create"]).toBe(1);
    await expect(client.calls.create({ from_number: "+15550010001", to_number: "+15550000001", agent: randomUUID() })).rejects.toBeInstanceOf(ApiError);
    expect(emu.stats.byRoute["POST /v1/calls/create"]).toBe(1);
  });

  it("a create answered 429 (not processed) is retried once allowed", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/agents/create", status: 429, retryAfterSeconds: 0, count: 1 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const agent = await client.agents.create({ prompt: "p", voice: emu.seeds.get("r")!.voices[0]! });
    expect(agent.prompt).toBe("p");
    expect(emu.stats.byRoute["POST /v1/agents/create"]).toBe(2);
    expect((await client.agents.list.all()).length).toBe(1);
  });

  it("a reset connection on a read is retried", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/numbers/list", reset: true, count: 1 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    expect((await client.numbers.list.page()).total).toBe(4);
  });
});

describe("concurrency cap", () => {
  it("never has more requests in flight than the cap under 200 parallel calls", async () => {
    let inFlight = 0;
    let peak = 0;
    const voice = { id: randomUUID(), user_id: randomUUID(), type: "voice_base", voice_name: "a", pitch: 0, rate: 0 };
    server = await startRecordingServer(async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return { json: voice };
    });
    const client = createClient({ baseUrl: server.url, token: "c", concurrency: 5 });
    const results = await Promise.all(Array.from({ length: 200 }, () => client.voices.get(voice.id)));
    expect(results).toHaveLength(200);
    expect(server.requests).toHaveLength(200);
    expect(peak).toBe(5);
  });
});
