// voiceagent recover's decisions: what each pending create of an interrupted up made.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decide, settled, type Live, type PendingOperation, type StackExport } from "../../provider/cli/recover.js";

const USER = randomUUID();
const voice = { id: randomUUID(), user_id: USER, type: "voice_base", voice_name: "alloy", pitch: 0, rate: 1 };
const agentOf = (prompt: string) => ({ id: randomUUID(), user_id: USER, prompt, actions: [], voice, initial_message: null, webhook: null });
const live = (agents: ReturnType<typeof agentOf>[], extra: Partial<Live> = {}): Live => ({
  voices: [voice],
  actions: [],
  webhooks: [],
  agents,
  numbers: [],
  calls: [],
  ...extra,
});
const pendingAgent = (prompt: string, extra: Record<string, unknown> = {}): PendingOperation => ({
  type: "creating",
  resource: { urn: `urn:pulumi:s::p::pulumi-nodejs:dynamic/voiceagent:Agent::${prompt}`, type: "pulumi-nodejs:dynamic/voiceagent:Agent", inputs: { prompt, voice: voice.id, actions: [], __provider: "x", ...extra } },
});

describe("recover decides from what each create sent", () => {
  it("one unmanaged exact match is adopted; none is cleared; two are never guessed between", () => {
    const a = agentOf("one");
    const [b1, b2] = [agentOf("two"), agentOf("two")];
    const d = decide([pendingAgent("one"), pendingAgent("none"), pendingAgent("two")], new Set(), live([a, b1, b2]));
    expect(d.map((x) => x.outcome)).toEqual(["adopted", "cleared", "unresolved"]);
    expect(d[0]!.id).toBe(a.id);
    expect([...(d[2]!.candidates ?? [])].sort()).toEqual([b1.id, b2.id].sort());
  });

  it("never takes an object a stack manages, nor one another pending create took", () => {
    const [x, y] = [agentOf("same"), agentOf("same")];
    expect(decide([pendingAgent("same")], new Set([x.id]), live([x, y]))[0]).toMatchObject({ outcome: "adopted", id: y.id });
    const both = decide([pendingAgent("same"), pendingAgent("same")], new Set([x.id]), live([x, y]));
    expect(both.map((b) => b.outcome)).toEqual(["adopted", "cleared"]);
  });

  it("an adopting create is its adopted id; a binding is cleared; a bought number is unresolved", () => {
    const id = randomUUID();
    expect(decide([pendingAgent("p", { agentId: id })], new Set(), live([]))[0]).toMatchObject({ outcome: "adopted", id });
    const binding: PendingOperation = { type: "creating", resource: { urn: "u1", type: "pulumi-nodejs:dynamic/voiceagent:PhoneNumber", inputs: { number: "+15550010001" } } };
    const bought: PendingOperation = { type: "creating", resource: { urn: "u2", type: "pulumi-nodejs:dynamic/voiceagent:PurchasedNumber", inputs: { areaCode: "415" } } };
    expect(decide([binding, bought], new Set(), live([])).map((x) => x.outcome)).toEqual(["cleared", "unresolved"]);
  });

  it("settles the export: adopted creates become resources (inputs as outputs until refresh), every pending create goes", () => {
    const a = agentOf("one");
    const ops = [pendingAgent("one"), pendingAgent("none"), { type: "updating", resource: { urn: "u", type: "t" } }];
    const exported: StackExport = { version: 3, deployment: { resources: [{ id: "r" }], pending_operations: ops } };
    const out = settled(exported, decide(ops.slice(0, 2), new Set(), live([a])));
    expect(out.deployment.resources).toHaveLength(2);
    expect(out.deployment.resources?.[1]).toMatchObject({ id: a.id, custom: true, outputs: { prompt: "one", __provider: "x" } });
    expect(out.deployment.pending_operations?.map((o) => o.type)).toEqual(["updating"]);
  });
});
