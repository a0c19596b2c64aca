// Two hosts in one process (issue 34 item 1): each provider instance's host holds its own clients,
// ledgers, claims, notes, redaction and pacers, so two of them in one process, each configured for
// a service of its own, never send to the other's service and share no store. Both emulators take
// the same token on purpose: a store keyed by the token alone (the ledger, the pacer's key, the
// redaction set) would be shared if it were module-level, and the checks below would see it.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { pacerFor, redact, registerSecret } from "../../provider/client/index.js";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";

const token = `two-hosts-${randomUUID()}`;
const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

/** A host as an edge builds it, with its notes collected, and the settings of its own service. */
async function hostOn(emu: RunningEmulator) {
  const notes: string[] = [];
  const host = new Host({ notes: (text) => notes.push(text) });
  const settings = {
    baseUrl: emu.url,
    token,
    config: { get: (k: string) => (k === "voiceagent:api" ? "2023" : undefined) },
  };
  return { host, notes, settings, voice: emu.seeds.get(token)!.voices[0]! };
}

describe("two hosts in one process", () => {
  it("each sends to its own service only, and neither sees the other's clients, ledger, claims, notes, redaction or pacer", async () => {
    const emuA = await startEmulator({ tokens: [token], seed: true });
    emulators.push(emuA);
    const emuB = await startEmulator({ tokens: [token], seed: true });
    emulators.push(emuB);
    expect(emuA.url).not.toBe(emuB.url);
    const a = await hostOn(emuA);
    const b = await hostOn(emuB);
    emuA.resetStats();
    emuB.resetStats();
    // Service A answers one create with 429 (so A's pacer learns a rate); service B never does.
    emuA.faults.add({ route: "/v1/agents/create", method: "POST", status: 429, retryAfterSeconds: 0, count: 1 });

    // Both at once: creates through each host's runtime, interleaved.
    const made = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        runtimeFor("Agent", a.host).create(a.settings, { prompt: `a${i}`, voice: a.voice }),
      ),
      ...Array.from({ length: 3 }, (_, i) =>
        runtimeFor("Agent", b.host).create(b.settings, { prompt: `b${i}`, voice: b.voice }),
      ),
    ]);
    expect(made).toHaveLength(11);
    // Every create reached its own host's service, once, and none the other's.
    expect(emuA.stats.writes["POST /v1/agents/create"]).toBe(8);
    expect(emuB.stats.writes["POST /v1/agents/create"]).toBe(3);

    // Clients and ledgers: one per host (the same token, two services, two ledgers).
    expect(a.host.clients.size).toBe(1);
    expect(b.host.clients.size).toBe(1);
    expect(a.host.clients.ledger(token)).toBeDefined();
    expect(a.host.clients.ledger(token)).not.toBe(b.host.clients.ledger(token));

    // Pacers: A's learned A's limit; B, asked for the very same service and token, knows nothing of it.
    expect(a.host.run(() => pacerFor(emuA.url.replace(/\/+$/, ""), token)).perSecond).toBeGreaterThan(0);
    expect(b.host.run(() => pacerFor(emuA.url.replace(/\/+$/, ""), token)).perSecond).toBeUndefined();

    // Claims: a number A's program declares is A's only.
    const number = "+15550019876";
    await runtimeFor("PhoneNumber", a.host).check(a.settings, {}, { number, inboundAgent: made[0]!.id });
    expect(a.host.run(() => a.host.claims.of("PhoneNumber", number, undefined))).toEqual({ status: "declared" });
    expect(b.host.run(() => b.host.claims.of("PhoneNumber", number, undefined))).toEqual({ status: "free" });

    // Notes: A's destroy of an agent (which the service cannot delete) is told to A only.
    const notesOfB = b.notes.length;
    await runtimeFor("Agent", a.host).delete(a.settings, made[0]!.id, made[0]!.outs);
    expect(a.notes.join("\n")).toContain(`voiceagent:Agent ${made[0]!.id}: the service has no delete for agents`);
    expect(b.notes.slice(notesOfB).join("\n")).not.toContain(made[0]!.id);

    // Redaction: a secret registered in A is A's; B's messages are redacted with B's own secrets.
    const secret = `secret-of-a-${randomUUID()}`;
    a.host.run(() => registerSecret(secret));
    expect(a.host.run(() => redact(`x ${secret} y`))).toBe("x [REDACTED] y");
    expect(b.host.run(() => redact(`x ${secret} y`))).toBe(`x ${secret} y`);
    // Each host's token is its own host's secret (registered when its client was made).
    expect(b.host.run(() => redact(`Bearer ${token}`))).toBe("Bearer [REDACTED]");
  });
});
