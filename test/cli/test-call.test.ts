// `voiceagent test-call` in process against a listening emulator whose calls progress in real time
// (short steps): it passes when the agent answers and every event arrives, and exits 3 naming why
// when the number does not answer or an event is dropped; 1 when the emulator has no calls.
// Through the real CLI on a Pulumi stack: test/e2e/test-call.test.ts.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";
import { cliInProcess } from "./run-cli.js";

const TOKEN = "test-call-token";
let emu: RunningEmulator;
let failing: RecordingServer;
const env = () => ({ VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: TOKEN });

const post = async (route: string, body: unknown) => {
  const res = await fetch(`${emu.url}${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${JSON.stringify(json)}`);
  return json as { id: string };
};

/** A port free a moment ago on 127.0.0.1 (for --listen, which the webhook's url must name beforehand). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });

/** An agent whose webhook posts to `url`, bound to `number`. */
async function bind(number: string, url: string, subscriptions: string[]) {
  const voice = emu.seeds.get(TOKEN)!.voices[0];
  const hook = await post("/v1/webhooks/create", { url, subscriptions });
  const agent = await post("/v1/agents/create", { prompt: "p", voice, actions: [], webhook: hook.id });
  await post(`/v1/numbers/update?phone_number=${encodeURIComponent(number)}`, { inbound_agent: agent.id });
  return agent.id;
}

beforeAll(async () => {
  emu = await startEmulator({
    tokens: [TOKEN],
    seed: true,
    calls: { stepMs: 5, webhooks: { timeoutMs: 2000, maxAttempts: 2, backoffMs: 5 } },
  });
  failing = await startRecordingServer(() => ({ status: 500 }));
});
afterAll(async () => {
  await emu?.close();
  await failing?.close();
});

describe("voiceagent test-call", () => {
  it("passes when the expected agent answers and its receiver (--listen) gets every event", async () => {
    const [number] = emu.seeds.get(TOKEN)!.numbers;
    const port = await freePort();
    const agent = await bind(number!, `http://127.0.0.1:${port}/hooks`, [
      "event_phone_call_connected",
      "event_message",
      "event_phone_call_ended",
    ]);
    const r = await cliInProcess(
      ["test-call", "--to", number!, "--agent", agent, "--listen", String(port), "--say", "hi", "--json"],
      env(),
    );
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ agent, phase: "ended", problems: [] });
    expect(report.events).toEqual([
      { type: "event_phone_call_connected", produced: 1, delivered: 1, received: 1 },
      { type: "event_message", produced: 1, delivered: 1, received: 1 },
      { type: "event_phone_call_ended", produced: 1, delivered: 1, received: 1 },
    ]);
    expect(r.code).toBe(0);
  });

  it("exits 3 naming the dropped event and the receiver's answer", async () => {
    const number = emu.seeds.get(TOKEN)!.numbers[1]!;
    await bind(number, failing.url, ["event_phone_call_ended"]);
    const r = await cliInProcess(["test-call", "--to", number], env());
    expect(r.stdout).toContain("FAIL: event_phone_call_ended #");
    expect(r.stdout).toContain("was dropped after 2 attempt(s) (last: 500)");
    expect(r.code).toBe(3);
  });

  it("exits 3 when the number does not answer, saying why", async () => {
    const unbound = emu.seeds.get(TOKEN)!.numbers[3]!;
    const r = await cliInProcess(["test-call", "--to", unbound], env());
    expect(r.stdout).toContain(`FAIL: the call to ${unbound} did not reach an agent:`);
    expect(r.stdout).toContain("no_inbound_agent");
    expect(r.code).toBe(3);
  });

  it("exits 1 against an emulator whose calls do not progress, saying what to start", async () => {
    const plain = await startEmulator({ tokens: [TOKEN], seed: true });
    try {
      const r = await cliInProcess(["test-call", "--to", "+15550010001"], {
        VOICEAGENT_BASE_URL: plain.url,
        VOICEAGENT_TOKEN: TOKEN,
      });
      expect(r.stderr).toContain("--calls");
      expect(r.stderr).not.toContain(TOKEN);
      expect(r.code).toBe(1);
    } finally {
      await plain.close();
    }
  });
});
