// voiceagent recover's decisions (what each pending create of an interrupted up made) and its
// edit of the state. Every adoption here needs evidence: a snapshot from before the run.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emptyAccount } from "../../provider/cli/account.js";
import { decide, isOwnCreate, type Evidence, type Live } from "../../provider/cli/recover.js";
import {
  fingerprint,
  settled,
  unsettledResources,
  type PendingOperation,
  type StackExport,
} from "../../provider/cli/recover-state.js";
import { readSnapshot } from "../../provider/cli/snapshot.js";
import { matchesSent } from "../../provider/client/match.js";

const USER = randomUUID();
const voice = { id: randomUUID(), user_id: USER, type: "voice_base", voice_name: "alloy", pitch: 0, rate: 1 };
const agentOf = (prompt: string) => ({
  id: randomUUID(),
  user_id: USER,
  prompt,
  actions: [],
  voice,
  initial_message: null,
  webhook: null,
});
const actionOf = (config: Record<string, unknown>) => ({
  id: randomUUID(),
  user_id: USER,
  type: "action_transfer_call",
  config,
});
const live = (extra: Partial<Live>): Live => ({
  ...emptyAccount(),
  gaps: {},
  voices: [voice],
  actions: [],
  webhooks: [],
  agents: [],
  numbers: [],
  calls: [],
  ...extra,
});
const evidence = (e: Partial<Evidence> = {}): Evidence => ({ managed: new Map(), urns: new Set(), ...e });
const dyn = (kind: string) => `pulumi-nodejs:dynamic/voiceagent:${kind}`;
const pendingAgent = (name: string, prompt: string, extra: Record<string, unknown> = {}): PendingOperation => ({
  type: "creating",
  resource: {
    urn: `urn:pulumi:staging::p::${dyn("Agent")}::${name}`,
    type: dyn("Agent"),
    inputs: { prompt, voice: voice.id, actions: [], __provider: "x", ...extra },
  },
});

describe("recover adopts only on evidence", () => {
  it("without a snapshot a matching object is never adopted: reported with the line that adopts it", () => {
    const a = agentOf("one");
    const [d, none] = decide(
      [pendingAgent("a", "one"), pendingAgent("b", "nothing like it")],
      evidence(),
      live({ agents: [a] }),
    );
    expect(d).toMatchObject({ outcome: "unresolved", candidates: [a.id], paste: [`agentId: "${a.id}"`] });
    expect(d?.id).toBeUndefined();
    expect(none?.outcome).toBe("clear");
  });

  it("with a snapshot: the one object made since is adopted; one listed before it means the create never arrived", () => {
    const [old, made] = [agentOf("same"), agentOf("same")];
    const ev = evidence({ before: new Set([old.id, voice.id]) });
    expect(decide([pendingAgent("a", "same")], ev, live({ agents: [old, made] }))[0]).toMatchObject({
      outcome: "adopt",
      id: made.id,
    });
    expect(decide([pendingAgent("a", "same")], ev, live({ agents: [old] }))[0]?.outcome).toBe("clear");
    const twin = agentOf("same");
    const both = decide([pendingAgent("a", "same")], ev, live({ agents: [old, made, twin] }))[0];
    expect(both?.outcome).toBe("unresolved");
    expect([...(both?.candidates ?? [])].sort()).toEqual([made.id, twin.id].sort());
  });

  it("never takes an object another stack manages, even one made after the snapshot", () => {
    const prod = agentOf("same");
    const ev = evidence({ before: new Set(), managed: new Map([[prod.id, "voiceagent-environments/production"]]) });
    const [d] = decide([pendingAgent("a", "same")], ev, live({ agents: [prod] }));
    expect(d?.outcome).toBe("clear");
    expect(d?.why).toContain("voiceagent-environments/production");
    // Named outright by an adopt input, it is still not taken twice.
    const named = decide([pendingAgent("b", "x", { agentId: prod.id })], ev, live({ agents: [prod] }))[0];
    expect(named).toMatchObject({ outcome: "unresolved", candidates: [prod.id] });
  });

  it("two pending creates with one fresh match: the first takes it, the second is cleared", () => {
    const made = agentOf("same");
    const ds = decide(
      [pendingAgent("a", "same"), pendingAgent("b", "same")],
      evidence({ before: new Set() }),
      live({ agents: [made] }),
    );
    expect(ds.map((d) => [d.outcome, d.id])).toEqual([
      ["adopt", made.id],
      ["clear", undefined],
    ]);
  });

  it("an action sent with config {} matches only an action whose config is empty", () => {
    const withNumber = actionOf({ phone_number: "+15550001111" });
    const empty = actionOf({});
    const op: PendingOperation = {
      type: "creating",
      resource: {
        urn: `urn:pulumi:s::p::${dyn("Action")}::hang-up`,
        type: dyn("Action"),
        inputs: { type: "action_transfer_call", config: {} },
      },
    };
    expect(matchesSent({ type: "action_transfer_call", config: {} }, withNumber)).toBe(false);
    const ev = evidence({ before: new Set() });
    expect(decide([op], ev, live({ actions: [withNumber] }))[0]?.outcome).toBe("clear");
    expect(decide([op], ev, live({ actions: [withNumber, empty] }))[0]).toMatchObject({
      outcome: "adopt",
      id: empty.id,
    });
  });

  it(`numbers, as their kinds say (recover: rebind, number): a binding is redone, never adopted; a bought number is adopted only by its \
number`, () => {
    const agent = agentOf("answers");
    const fresh = { id: randomUUID(), user_id: USER, active: true, inbound_agent: agent, number: "+15550010009" };
    const newer = { ...fresh, id: randomUUID(), inbound_agent: null, number: "+15550010008" };
    const pendingOf = (kind: string, name: string, inputs: Record<string, unknown>): PendingOperation => ({
      type: "creating",
      resource: { urn: `urn:pulumi:staging::p::${dyn(kind)}::${name}`, type: dyn(kind), inputs },
    });
    const [binding, adopting, buying] = decide(
      [
        // Bound exactly as it sent and new since the snapshot: still a binding, which the next up redoes.
        pendingOf("PhoneNumber", "line", { number: fresh.number, inboundAgent: agent.id }),
        pendingOf("PurchasedNumber", "kept", { number: fresh.number }),
        pendingOf("PurchasedNumber", "bought", { areaCode: "555" }),
      ],
      evidence({ before: new Set() }),
      live({ agents: [agent], numbers: [fresh, newer] }),
    );
    expect(binding).toMatchObject({ kind: "PhoneNumber", outcome: "clear" });
    expect(adopting).toMatchObject({ kind: "PurchasedNumber", outcome: "adopt", id: fresh.id });
    // A number bought since the snapshot is offered, never taken; the one adopted above is not offered again.
    expect(buying).toMatchObject({
      kind: "PurchasedNumber",
      outcome: "unresolved",
      paste: [`number: "${newer.number}"`],
    });
    expect(buying?.id).toBeUndefined();
  });

  it("a current-API number whose `active` is null is active: adopted by its number, offered when bought since", () => {
    const kept = { id: randomUUID(), user_id: USER, active: null, inbound_agent: null, number: "+15550010019" };
    const bought = { ...kept, id: randomUUID(), number: "+15550010018" };
    const pendingOf = (name: string, inputs: Record<string, unknown>): PendingOperation => ({
      type: "creating",
      resource: {
        urn: `urn:pulumi:staging::p::${dyn("PurchasedNumber")}::${name}`,
        type: dyn("PurchasedNumber"),
        inputs,
      },
    });
    const [adopting, buying] = decide(
      [pendingOf("kept", { number: kept.number }), pendingOf("bought", { areaCode: "555" })],
      evidence({ before: new Set() }),
      live({ numbers: [kept, bought] }),
    );
    expect(adopting).toMatchObject({ outcome: "adopt", id: kept.id });
    expect(buying).toMatchObject({ outcome: "unresolved", candidates: [bought.id] });
  });

  it("a replacement under a URN still in the state is never settled, even with a fresh match", () => {
    const made = agentOf("new prompt");
    const op = pendingAgent("a", "new prompt");
    const [d] = decide(
      [op],
      evidence({ before: new Set(), urns: new Set([op.resource.urn]) }),
      live({ agents: [made] }),
    );
    expect(d?.outcome).toBe("unresolved");
    expect(d?.id).toBeUndefined();
  });

  it("an ended call no snapshot listed is the one the create placed: adopted, never dialled again; without a snapshot it is unresolved", () => {
    const agent = agentOf("greeter");
    const placed = {
      id: randomUUID(),
      user_id: USER,
      status: "ended",
      error_message: null,
      recording_available: true,
      transcript: "hello",
      from_number: "+15550010001",
      to_number: "+15557654321",
      agent,
    };
    const op: PendingOperation = {
      type: "creating",
      resource: {
        urn: `urn:pulumi:s::p::${dyn("Call")}::ring`,
        type: dyn("Call"),
        inputs: { fromNumber: placed.from_number, toNumber: placed.to_number, agent: agent.id, __provider: "x" },
      },
    };
    const account = live({ agents: [agent], calls: [placed] });
    expect(decide([op], evidence({ before: new Set([voice.id, agent.id]) }), account)[0]).toMatchObject({
      outcome: "adopt",
      id: placed.id,
    });
    expect(decide([op], evidence(), account)[0]).toMatchObject({ outcome: "unresolved", candidates: [placed.id] });
    // Listed before the run, the same ended call is someone else's: this create never arrived.
    expect(decide([op], evidence({ before: new Set([placed.id]) }), account)[0]?.outcome).toBe("clear");
  });

  it("owns the dynamic and the native types, nothing else, and only creates", () => {
    const op = (type: string, kind = "creating"): PendingOperation => ({ type: kind, resource: { urn: "u", type } });
    expect(
      [
        op(dyn("Agent")),
        op("voiceagent:index:Voice"),
        op("aws:s3/bucket:Bucket"),
        op(dyn("Agent"), "updating"),
        op("random:index/randomId:RandomId"),
      ].map(isOwnCreate),
    ).toEqual([true, true, false, false, false]);
  });
});

describe("recover clears a pending create only on a complete listing", () => {
  /** An agents listing that could not read one item (the interrupted run's agent, for all recover knows). */
  const unreadAgents = (id: string | undefined): Live["gaps"] => ({
    agents: {
      complete: false,
      readable: [],
      unreadable: [{ ...(id ? { id } : {}), why: "user_id: Invalid input: expected string, received number" }],
    },
  });

  it("no readable match and an item it could not read: unresolved, never cleared as 'never reached the service'", () => {
    const made = randomUUID();
    for (const ev of [evidence(), evidence({ before: new Set([voice.id]) })]) {
      const [d] = decide([pendingAgent("a", "lost")], ev, { ...live({}), gaps: unreadAgents(made) });
      expect(d?.outcome).toBe("unresolved");
      expect(d?.why).not.toMatch(/never reached the service/);
      expect(d?.why).toMatch(/could not be read whole/);
      expect(d?.why).toContain(made);
      expect(d?.why).toMatch(/may have reached the service/);
      expect(d?.why).toMatch(/run recover again/i);
    }
    // An unreadable item without an id is no better.
    expect(
      decide([pendingAgent("a", "lost")], evidence(), { ...live({}), gaps: unreadAgents(undefined) })[0]?.outcome,
    ).toBe("unresolved");
  });

  it("an unreadable item that cannot be this create's object (listed before the run, or managed) leaves the proof whole", () => {
    const old = randomUUID();
    const byStack = evidence({ managed: new Map([[old, "prod"]]) });
    const bySnapshot = evidence({ before: new Set([old, voice.id]) });
    for (const ev of [byStack, bySnapshot]) {
      expect(decide([pendingAgent("a", "lost")], ev, { ...live({}), gaps: unreadAgents(old) })[0]?.outcome).toBe(
        "clear",
      );
    }
  });
});

describe("recover's edit of the state", () => {
  const made = agentOf("one");
  const mine = pendingAgent("a", "one");
  const gone = pendingAgent("b", "none");
  const bucket: PendingOperation = {
    type: "creating",
    resource: { urn: "urn:pulumi:staging::p::aws:s3/bucket:Bucket::b", type: "aws:s3/bucket:Bucket" },
  };
  const exportOf = (
    ops: PendingOperation[],
    resources: StackExport["deployment"]["resources"] = [
      { urn: "urn:pulumi:staging::p::pulumi:pulumi:Stack::p-staging", type: "pulumi:pulumi:Stack" },
    ],
  ): StackExport => ({
    version: 3,
    deployment: { manifest: { time: "2026-11-23T10:00:00Z", magic: "m" }, resources, pending_operations: ops },
  });
  const decisions = decide([mine, gone], evidence({ before: new Set() }), live({ agents: [made] }));

  it("adopted creates become resources (inputs as outputs until refresh); every settled create leaves the pending list", () => {
    const out = settled(exportOf([mine, gone]), decisions);
    expect(out.deployment.resources?.[1]).toMatchObject({
      urn: mine.resource.urn,
      id: made.id,
      custom: true,
      outputs: { prompt: "one", __provider: "x" },
    });
    expect(out.deployment.resources).toHaveLength(2);
    expect(out.deployment.pending_operations).toEqual([]);
  });

  it("refuses when another provider's pending create would be dropped by the import", () => {
    expect(() => settled(exportOf([mine, bucket]), decisions)).toThrow(/1 other pending operation/);
  });

  it("refuses to add a second resource under a URN the state holds", () => {
    const adopted = decisions.filter((d) => d.outcome === "adopt");
    expect(() =>
      settled(exportOf([mine], [{ urn: mine.resource.urn, type: mine.resource.type, id: randomUUID() }]), adopted),
    ).toThrow(/already in the state/);
  });

  it(`creates a failed run kept unsettled in the state are settled by the ids they recorded from before: the one made \
takes its id, one never made leaves the state, one still unknown stays as it is`, () => {
    const older = agentOf("one");
    const unsettledAgent = (name: string, prompt: string, before: string[]) => ({
      urn: `urn:pulumi:staging::p::${dyn("Agent")}::${name}`,
      type: dyn("Agent"),
      id: `unsettled-${randomUUID()}`,
      custom: true,
      inputs: { prompt, voice: voice.id, actions: [], __provider: "x" },
      outputs: { prompt, unsettledCreate: { before } },
      initErrors: ["create outcome unknown"],
    });
    const found = unsettledAgent("found", "one", [older.id]);
    const never = unsettledAgent("never", "two", []);
    const exported = exportOf([], [found, never]);
    const kept = unsettledResources(exported, isOwnCreate);
    expect(kept.map((u) => [u.id, [...(u.before ?? [])]])).toEqual([
      [found.id, [older.id]],
      [never.id, []],
    ]);
    const account = live({ agents: [older, made] });
    const decided = kept.flatMap((u) => decide([u.op], evidence({ before: u.before }), account));
    expect(decided.map((d) => [d.outcome, d.id])).toEqual([
      ["adopt", made.id],
      ["clear", undefined],
    ]);
    const out = settled(exported, [], decided);
    expect(out.deployment.resources).toEqual([
      { urn: found.urn, type: found.type, id: made.id, custom: true, inputs: found.inputs, outputs: found.inputs },
    ]);
    // Unresolved: left as it was, provisional id and all.
    const unresolved = settled(exported, [], [{ ...decided[0]!, outcome: "unresolved" }]);
    expect(unresolved.deployment.resources?.[0]).toEqual(found);
  });

  it("the fingerprint changes with every save of the checkpoint, not with secrets shown or hidden", () => {
    const a = exportOf([mine]);
    const shown = structuredClone(a);
    shown.deployment.resources = [{ ...shown.deployment.resources![0]!, outputs: { token: "plain" } }];
    expect(fingerprint(shown)).toBe(fingerprint(a));
    const saved = structuredClone(a);
    saved.deployment.manifest = { time: "2026-11-23T10:00:01Z", magic: "m" };
    expect(fingerprint(saved)).not.toBe(fingerprint(a));
  });
});

describe("the snapshot recover takes as evidence", () => {
  it("is refused when it lists another service: its ids say nothing about this one", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "recover-snapshot-"));
    try {
      const file = path.join(dir, "before.json");
      writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          baseUrl: "https://staging.example.com/",
          takenAt: new Date().toISOString(),
          ids: ["a"],
        }),
      );
      expect(readSnapshot(file, "https://staging.example.com").ids).toEqual(["a"]);
      expect(() => readSnapshot(file, "https://api.example.com")).toThrow(/https:\/\/api\.example\.com/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
