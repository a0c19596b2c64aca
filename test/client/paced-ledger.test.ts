// A create's bookkeeping and the wait for its turn under a learned rate limit (client/reconcile.ts,
// client/paced-time.ts): the wait is not charged to the operation's budget, so the ledger's steps
// after a create sent minutes late still fall within it. The clock and the wait are simulated.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startEmulator } from "voiceagent-emulator";
import { createCapabilities } from "../../provider/client/capabilities.js";
import { createClient } from "../../provider/client/client.js";
import { MemoryLedger, type Until } from "../../provider/client/ledger.js";
import { mergeOptions } from "../../provider/client/options.js";
import { PacedTime } from "../../provider/client/paced-time.js";
import { createOnce } from "../../provider/client/reconcile.js";
import { Snapshots } from "../../provider/client/snapshots.js";
import { ClientStores, runInScope } from "../../provider/client/stores.js";
import { createTransport } from "../../provider/client/transport.js";

/**
 * A ledger whose lock another process holds whenever asked: a step waits for it up to its deadline,
 * so one asked past its deadline fails at once (as coordination/shared-ledger.ts does).
 */
class BusyLedger extends MemoryLedger {
  override async claim(id: string, until?: Until): Promise<boolean> {
    if (until && until.now() >= until.at) throw new Error("the lock was still held at the operation's deadline");
    return super.claim(id);
  }
}

describe("a create sent after a long wait for its turn", () => {
  it("records its answer: the wait is not charged to the deadline of its ledger steps", async () => {
    let clock = 1_000_000;
    const options = mergeOptions({ now: () => clock, retry: { budgetMs: 120_000 }, reconcile: { enabled: false } });
    const never = () => Promise.reject(new Error("no request is sent in this test"));
    const ctx = {
      transport: createTransport("http://127.0.0.1:9", "t0ken", options),
      snapshots: new Snapshots(createCapabilities(never)),
      ledger: new BusyLedger(),
      options,
    };
    const paced = new PacedTime();
    const made = await runInScope({ stores: new ClientStores(), paced }, () =>
      createOnce(
        {
          collection: "agents",
          noun: "agent",
          body: { prompt: "p" },
          overlaps: () => true,
          // Its turn comes ten minutes (five budgets) after the create started; then it is answered at once.
          send: async () => {
            paced.start(clock);
            clock += 600_000;
            paced.end(clock);
            return { id: "agent-1" };
          },
          list: never,
          matches: () => true,
        },
        ctx,
      ),
    );
    expect(made).toEqual({ id: "agent-1" });
  });
});

describe("creates queued for a concurrency slot behind requests waiting for their turns", () => {
  it(`record their answers: the wait for the slot is the limit's queue too, not charged to the deadline of their \
ledger steps (ten creates through one slot under 4 a second, a budget of 1.5 s each)`, async () => {
    const token = `slot-${randomUUID()}`;
    const emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond: 4, burst: 2 } });
    try {
      const voice = emu.seeds.get(token)!.voices[0]!;
      const stores = new ClientStores();
      const settings = { baseUrl: emu.url, token, reconcile: { enabled: false } };
      // The limit learned first, by a burst of reads of the token in the same host.
      const reader = runInScope({ stores }, () => createClient({ ...settings, concurrency: 8 }));
      await runInScope({ stores }, () => Promise.all(Array.from({ length: 20 }, () => reader.voices.get(voice))));
      expect(stores.pacers.for(emu.url, token).perSecond).toBeDefined();
      const client = runInScope({ stores }, () =>
        createClient({ ...settings, concurrency: 1, ledger: new BusyLedger(), retry: { budgetMs: 1_500 } }),
      );
      // Each create its own operation (its own paced time), as the provider runs them; the last waits
      // nine turns or more for the slot, longer than its budget.
      const creates = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          runInScope({ stores, paced: new PacedTime() }, () => client.agents.create({ prompt: `p${i}`, voice })),
        ),
      );
      expect(creates.flatMap((c) => (c.status === "rejected" ? [String(c.reason)] : []))).toEqual([]);
      expect(emu.stats.writes["POST /v1/agents/create"]).toBe(10);
    } finally {
      await emu.close();
    }
  });
});
