// LinkedNumber (numbers/link: a number of the team's own Twilio account) and getUsage, driven
// in-process the way the engine drives them, against the emulator speaking the current API (2024):
// the link is made once even when its answer is lost (settled by the numbers list, never by
// linking again), the inbound agent drifts and changes in place, destroy leaves the number linked
// and says so, a move to another resource takes the number over without linking or rebinding it,
// and on the interface (2023) both refuse before sending anything.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { runtimeFor as runtimeIn } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import { invokeFunction as invokeIn } from "../../provider/resources/functions/invoke.js";
import type { Props } from "../../provider/resources/kit/kind.js";
import type { ProviderSettings } from "../../provider/resources/kit/settings.js";
import { RequestScope } from "../../provider/resources/kit/scope.js";
import { KINDS } from "../../provider/resources/kinds/index.js";

let host = new Host({ notes: (text) => notes.push(text) });
/** A kind's runtime as the dynamic host builds it: in this file's host. */
const runtimeFor = (kind: Parameters<typeof runtimeIn>[0]) => runtimeIn(kind, host);
/** The functions as an edge runs them: in its host. */
const invokeFunction = (name: string, settings: ProviderSettings, args: Props) =>
  host.run(() => invokeIn({ scope: RequestScope.of(host, settings), name, args }));

let emu: RunningEmulator;
const token = `linked-${randomUUID()}`;
const notes: string[] = [];
/** Settings as `configure` captures them, with voiceagent:api set. */
const settings = (api: string) => ({
  baseUrl: emu.url,
  token,
  config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
});
/** The Twilio credentials of the team's connection: they must never reach a resource's outputs. */
const SID = `AC${randomUUID().replace(/-/g, "")}`;
const AUTH = `auth-${randomUUID()}`;
let connection: string;
let agents: string[];
/** Numbers of the team's own Twilio account, not yet on the service. */
let next = 0;
const ownNumber = () => `+1646555${String(1000 + next++).padStart(4, "0")}`;
const links = () => emu.stats.writes["POST /v1/numbers/link"] ?? 0;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], seed: true, api: "2024" });
  const made = await fetch(`${emu.url}/v1/account_connections/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: SID, twilio_auth_token: AUTH },
    }),
  });
  expect(made.status).toBe(200);
  connection = ((await made.json()) as { id: string }).id;
  const seeds = emu.seeds.get(token)!;
  const agent = runtimeFor("Agent");
  agents = [
    (await agent.create(settings("2024"), { prompt: "Hola.", voice: seeds.voices[0] })).id,
    (await agent.create(settings("2024"), { prompt: "Hello.", voice: seeds.voices[1] })).id,
  ];
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  notes.length = 0;
  emu.faults.clear();
});

describe("LinkedNumber on the current API (2024)", () => {
  it("links at up, says at preview that destroy leaves it linked, reads back without the connection's credentials", async () => {
    const linked = runtimeFor("LinkedNumber");
    const inputs = { number: ownNumber(), telephonyAccountConnection: connection, inboundAgent: agents[0] };
    expect((await linked.check(settings("2024"), {}, inputs)).failures).toBeUndefined();
    expect(notes.join("\n")).toMatch(/no unlink.*leaves the number linked and bound to its agent/);
    const made = await linked.create(settings("2024"), inputs);
    expect(links()).toBeGreaterThan(0);
    const read = await linked.read(settings("2024"), made.id, made.outs);
    // The full number embeds the Twilio connection, credentials and all: none of it is kept.
    for (const kept of [made.outs, read.props]) {
      expect(JSON.stringify(kept)).not.toContain(SID);
      expect(JSON.stringify(kept)).not.toContain(AUTH);
    }
    expect(made.outs).toMatchObject({ ...inputs, active: true, numberId: made.id });
    expect(read.props).toMatchObject({ ...inputs, active: true });
  });

  it("a hand change of the inbound agent is drift; the program's agent and outboundOnly are set back in place", async () => {
    const linked = runtimeFor("LinkedNumber");
    const inputs = { number: ownNumber(), telephonyAccountConnection: connection, inboundAgent: agents[0] };
    const made = await linked.create(settings("2024"), inputs);
    // By hand, in the dashboard: another agent answers it.
    await createClient({ baseUrl: emu.url, token, api: "2024" }).numbers.update(inputs.number, agents[1]!);
    const read = await linked.read(settings("2024"), made.id, made.outs);
    expect(read.props).toMatchObject({ inboundAgent: agents[1] });
    expect(await linked.diff(settings("2024"), made.id, read.props ?? {}, inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const wanted = { ...inputs, outboundOnly: true };
    const updated = await linked.update(settings("2024"), made.id, read.props ?? {}, wanted);
    expect(updated.outs).toMatchObject({ inboundAgent: agents[0], outboundOnly: true });
    const again = await linked.read(settings("2024"), made.id, updated.outs ?? {});
    expect(again.props).toMatchObject({ inboundAgent: agents[0], outboundOnly: true });
    expect(await linked.diff(settings("2024"), made.id, again.props ?? {}, wanted)).toMatchObject({ changes: false });
  });

  it("destroy sends nothing, says the number stays linked, and leaves it linked and bound", async () => {
    const linked = runtimeFor("LinkedNumber");
    const inputs = { number: ownNumber(), telephonyAccountConnection: connection, inboundAgent: agents[1] };
    const made = await linked.create(settings("2024"), inputs);
    const before = emu.stats.total;
    await linked.delete(settings("2024"), made.id, made.outs);
    expect(emu.stats.total).toBe(before);
    expect(notes.join("\n")).toMatch(
      new RegExp(
        `voiceagent:LinkedNumber ${made.id}: .*no unlink.*leaves the number linked.*removes it from the stack`,
      ),
    );
    const live = await createClient({ baseUrl: emu.url, token, api: "2024" }).linkedNumbers.get(inputs.number);
    expect(live).toMatchObject({ active: true, inbound_agent: agents[1], telephony_account_connection: connection });
  });

  it("a link whose answer is lost is found in the numbers list: linked once, not linked again", async () => {
    const linked = runtimeFor("LinkedNumber");
    const inputs = { number: ownNumber(), telephonyAccountConnection: connection, inboundAgent: agents[0] };
    const before = links();
    emu.faults.add({ phase: "after", route: "/v1/numbers/link", method: "POST", reset: true, count: 1 });
    const made = await linked.create(settings("2024"), inputs);
    expect(links() - before).toBe(1);
    expect(made.outs).toMatchObject({ ...inputs, active: true });
  });

  it("a lost answer whose list cannot be read whole is reported as unknown, never linked again", async () => {
    const linked = runtimeFor("LinkedNumber");
    const number = ownNumber();
    const inputs = { number, telephonyAccountConnection: connection, inboundAgent: agents[0] };
    const before = links();
    emu.faults.add({ phase: "after", route: "/v1/numbers/link", method: "POST", reset: true, count: 1 });
    // The new number's list item is unreadable (a number where its owner's id should be).
    emu.faults.add({ phase: "after", route: "/v1/numbers/list", items: { where: { number }, set: { user_id: 42 } } });
    const err = await linked.create(settings("2024"), inputs).catch((e: unknown) => e);
    expect(links() - before).toBe(1);
    expect((err as Error).message).toMatch(
      /may have made the linked number, and the list cannot show that it did not: 1 item of the list could not be read.*It is not sent again/,
    );
  });

  it(`a link whose answer is lost, sent again after a list that lags and refused as already held, may have acted: it is kept \
unsettled, never "changed nothing", and a refresh takes the number once the list shows it`, async () => {
    const linked = runtimeFor("LinkedNumber");
    const number = ownNumber();
    const inputs = { number, telephonyAccountConnection: connection, inboundAgent: agents[0] };
    emu.faults.add({ phase: "after", route: "/v1/numbers/link", method: "POST", reset: true, count: 1 });
    // The list lags behind the link for longer than the client's checks: every listing is complete, without it.
    emu.faults.add({ phase: "after", route: "/v1/numbers/list", items: { where: { number }, omit: true } });
    const err = await linked.create(settings("2024"), inputs).then(
      () => expect.unreachable("the create succeeded"),
      (e: unknown) => e as Error & { id?: string; properties?: Props },
    );
    expect(err.message).not.toMatch(/changed nothing/);
    expect(err.message).toMatch(/may have made the linked number/);
    expect(err.id).toMatch(/^unsettled-/);
    emu.faults.clear();
    const read = await linked.read(settings("2024"), err.id!, err.properties!);
    const live = await createClient({ baseUrl: emu.url, token, api: "2024" }).linkedNumbers.get(number);
    expect(read).toMatchObject({ id: live.id, props: { number, inboundAgent: agents[0] } });
  });

  it(`moved to another resource or provider: the new one takes the number over without linking or rebinding; the old one's delete sends \
nothing`, async () => {
    const linked = runtimeFor("LinkedNumber");
    const inputs = { number: ownNumber(), telephonyAccountConnection: connection, inboundAgent: agents[1] };
    const old = await linked.create(settings("2024"), inputs);
    const linksBefore = links();
    const updatesBefore = emu.stats.writes["POST /v1/numbers/update"] ?? 0;
    // The engine makes the new resource first, then deletes the old one.
    const moved = await linked.create(settings("2024"), inputs);
    expect(moved.id).toBe(old.id);
    expect(notes.join("\n")).toMatch(/already linked through this connection.*taken over, not linked again/);
    const before = emu.stats.total;
    await linked.delete(settings("2024"), old.id, old.outs);
    expect(emu.stats.total).toBe(before);
    expect(links()).toBe(linksBefore);
    expect(emu.stats.writes["POST /v1/numbers/update"] ?? 0).toBe(updatesBefore);
    const live = await createClient({ baseUrl: emu.url, token, api: "2024" }).linkedNumbers.get(inputs.number);
    expect(live).toMatchObject({ active: true, inbound_agent: agents[1] });
  });

  it("a number the account holds that this connection did not link is refused at create, changing nothing", async () => {
    const seeds = emu.seeds.get(token)!;
    const before = { ...emu.stats.writes };
    const err = await runtimeFor("LinkedNumber")
      .create(settings("2024"), { number: seeds.numbers.at(-1), telephonyAccountConnection: connection })
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /not linked through telephonyAccountConnection.*nothing was linked or changed/,
    );
    expect(emu.stats.writes).toEqual(before);
  });

  it("pulumi import by the E.164 number records the link under the number's id; a number the service sold is refused", async () => {
    const linked = runtimeFor("LinkedNumber");
    const inputs = { number: ownNumber(), telephonyAccountConnection: connection, inboundAgent: agents[0] };
    const made = await linked.create(settings("2024"), inputs);
    const imported = await linked.read(settings("2024"), inputs.number, {});
    expect(imported.id).toBe(made.id);
    expect(imported.props).toMatchObject({ ...inputs, active: true });
    const sold = emu.seeds.get(token)!.numbers[0]!;
    await expect(linked.read(settings("2024"), sold, {})).rejects.toThrow(
      /not linked through an account connection.*nothing was recorded.*PurchasedNumber/,
    );
  });

  it("a second LinkedNumber of one number is refused at preview, naming both and not the number", async () => {
    // The kit's runtime, as the native plugin calls it (with the URN of the resource it checks).
    const runtime = KINDS.find((k) => k.kind === "LinkedNumber")!.runtime;
    const linked = {
      check: (settings: ProviderSettings, olds: Props, news: Props, urn: string) =>
        host.run(() => runtime.check({ scope: RequestScope.of(host, settings, { urn }), olds, news })),
    };
    const number = ownNumber();
    const urn = (name: string) => `urn:pulumi:dev::p::voiceagent:index:LinkedNumber::${name}`;
    try {
      const inputs = { number, telephonyAccountConnection: connection };
      expect((await linked.check(settings("2024"), {}, inputs, urn("own-a"))).failures).toEqual([]);
      const second = await linked.check(settings("2024"), {}, inputs, urn("own-b"));
      expect(second.failures?.map((f) => f.reason)).toEqual([
        expect.stringMatching(
          /^number is also bound by LinkedNumber 'own-a' in this program: .*Remove 'own-b' or 'own-a'/,
        ),
      ]);
      expect(JSON.stringify(second.failures)).not.toContain(number);
    } finally {
      host = new Host({ notes: (text) => notes.push(text) });
    }
  });

  it("getUsage answers the plan and this month's minutes", async () => {
    const outcome = await invokeFunction("getUsage", settings("2024"), {});
    expect(outcome.result).toMatchObject({
      userId: expect.any(String),
      planType: expect.stringMatching(/^plan_/),
      monthlyUsageMinutes: expect.any(Number),
    });
    expect(outcome.result).toHaveProperty("monthlyUsageLimitMinutes");
  });
});

describe("getPhoneNumber and getPhoneNumbers on the current API (2024)", () => {
  it("say whether a number is linked and through which account connection, with none of its credentials; filter on it", async () => {
    const number = ownNumber();
    const made = await runtimeFor("LinkedNumber").create(settings("2024"), {
      number,
      telephonyAccountConnection: connection,
      inboundAgent: agents[0],
    });
    const sold = emu.seeds.get(token)!.numbers[0]!;
    const one = await invokeFunction("getPhoneNumber", settings("2024"), { number });
    expect(one.result).toEqual({
      id: made.id,
      number,
      active: true,
      inboundAgent: agents[0],
      linked: true,
      telephonyAccountConnection: connection,
      userId: expect.any(String),
    });
    expect((await invokeFunction("getPhoneNumber", settings("2024"), { number: sold })).result).toMatchObject({
      number: sold,
      linked: false,
      telephonyAccountConnection: null,
    });
    // The list names the connection by id, the direct read embeds it: both read alike.
    const listed = async (args: Record<string, unknown>) =>
      z
        .object({ numbers: z.array(z.looseObject({ number: z.string(), linked: z.boolean() })) })
        .parse((await invokeFunction("getPhoneNumbers", settings("2024"), args)).result).numbers;
    const all = await listed({});
    expect(all).toContainEqual(one.result);
    const linked = await listed({ linked: true });
    expect(linked.map((n) => n.number)).toContain(number);
    expect(linked.every((n) => n.linked)).toBe(true);
    const soldOnly = (await listed({ linked: false })).map((n) => n.number);
    expect(soldOnly).toContain(sold);
    expect(soldOnly).not.toContain(number);
    expect(JSON.stringify([one, all])).not.toMatch(new RegExp(`${SID}|${AUTH}`));
  });
});

describe("on the interface (2023)", () => {
  it("LinkedNumber fails at preview saying it needs the current API; getUsage fails before sending", async () => {
    const before = emu.stats.total;
    const checked = await runtimeFor("LinkedNumber").check(
      settings("2023"),
      {},
      { number: ownNumber(), telephonyAccountConnection: connection },
    );
    expect(checked.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(
        /^voiceagent:LinkedNumber needs the current API \(2024\).*nothing was sent to the service$/,
      ),
    ]);
    const err = await invokeFunction("getUsage", settings("2023"), {}).catch((e: unknown) => e);
    // A function's failure keeps the client error's code and that nothing was sent (issue 34 item 5).
    expect(err).toMatchObject({ code: "E_GENERATION", mayHaveActed: false });
    expect((err as Error).message).toMatch(/usage report .*needs the current API \(2024\).*Nothing was sent/);
    expect(emu.stats.total).toBe(before);
  });
});
