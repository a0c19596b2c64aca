// The host's cancel (what the plugin does on the engine's Cancel): a create held by the service
// is aborted in flight and ends as a lost reply does (the service may have made the object: an
// unknown outcome, not a silent loss), its reconciliation sends nothing, and no later request of
// the host's clients is sent.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { ApiError, createClient } from "../../provider/client/index.js";
import { ClientStores } from "../../provider/client/stores.js";
import { holdDelays } from "../helpers/held-delays.js";

const token = `cancel-${randomUUID()}`;
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], seed: true });
});
afterAll(async () => emu?.close());

describe("a cancelled host", () => {
  it("aborts the create in flight as may-have-acted, and sends nothing after", async () => {
    const host = new ClientStores();
    const client = host.run(() =>
      createClient({ baseUrl: emu.url, token, reconcile: { checkDelayMs: 1 }, retry: { baseDelayMs: 1 } }),
    );
    const voice = String(emu.seeds.get(token)?.voices[0]);
    emu.faults.add({ route: "/v1/agents/create", method: "POST", latencyMs: 1 });
    const held = holdDelays(emu.faults);
    const creating = host.run(() => client.agents.create({ prompt: "You answer.", voice })).catch((e: unknown) => e);
    await held.untilHolding(1);
    const sent = emu.stats.total;
    host.cancel();
    const err = await creating;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ mayHaveActed: true, code: "E_OUTCOME_UNKNOWN" });
    expect(String(err)).toMatch(/aborted in flight: the deployment was cancelled.*may have made the agent/);
    const later = await host.run(() => client.agents.list.all()).catch((e: unknown) => e);
    expect(later).toMatchObject({ code: "E_CANCELLED", mayHaveActed: false });
    expect(emu.stats.total).toBe(sent);
    held.fail();
    emu.faults.clear();
  });
});
