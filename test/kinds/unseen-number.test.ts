// A PurchasedNumber tracked only by its id (a buy whose answer could not be read records the id,
// not the number) can only be found in the list, and a list that misses it proves nothing: refresh
// keeps it, `up` does not call it gone, destroy does not pretend to have cancelled it.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient } from "pulumi-voiceagent/client";
import { startEmulator, type FaultRuleInput, type RunningEmulator } from "voiceagent-emulator";
import { Host } from "../../provider/host.js";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";

const TOKEN = `unseen-${randomUUID()}`;
let emu: RunningEmulator | undefined;
let notes: string[] = [];
// Each test is its own deployment: a host of its own, whose notes are collected.
let host = new Host();
beforeEach(() => {
  notes = [];
  host = new Host({ notes: (text) => notes.push(text) });
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** A number bought on the service, and the state a buy whose answer was unreadable recorded for it. */
async function boughtUnrecorded() {
  emu = await startEmulator({ tokens: [TOKEN], seed: true });
  const settings = { baseUrl: emu.url, token: TOKEN };
  const client = createClient(settings);
  const bought = await client.numbers.buy({ area_code: "415" });
  // What kit/errors.ts unreadableCreate records: the program's inputs, and the id; no number.
  const state = { areaCode: "415" };
  const running = emu;
  return {
    settings,
    id: bought.id,
    number: bought.number,
    state,
    rt: runtimeFor("PurchasedNumber", host),
    active: async () => (await client.numbers.get(bought.number)).active,
    writes: (route: string) => running.stats.writes[`POST ${route}`] ?? 0,
    fault: (f: FaultRuleInput) => running.faults.add(f),
  };
}

const lists: [string, (id: string) => FaultRuleInput][] = [
  [
    "a list lagging behind the purchase (the number left out)",
    (id) => ({ phase: "after", route: "/v1/numbers/list", items: { where: { id }, omit: true } }),
  ],
  [
    "a list whose item for it cannot be read",
    (id) => ({ phase: "after", route: "/v1/numbers/list", items: { where: { id }, set: { user_id: 42 } } }),
  ],
];

describe.each(lists)("a number recorded without its E.164, and %s", (_name, miss) => {
  it("refresh keeps it as recorded, and says what is unknown", async () => {
    const t = await boughtUnrecorded();
    t.fault(miss(t.id));
    const read = await t.rt.read(t.settings, t.id, t.state);
    // Dropped from the state ({id: ""}), the next up would buy another.
    expect(read).toEqual({ id: t.id, props: t.state });
    expect(notes.join("\n")).toMatch(new RegExp(`${t.id}.*unknown.*stays in the state`));
    expect(t.writes("/v1/numbers/cancel")).toBe(0);
  });

  it("up (finishing the partial create) does not call it gone from the service, and buys nothing", async () => {
    const t = await boughtUnrecorded();
    t.fault(miss(t.id));
    const err = await t.rt.update(t.settings, t.id, t.state, { areaCode: "415" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const { message } = err as Error;
    expect(message).not.toMatch(/no longer on the service/);
    expect(message).toMatch(/whether it is still bought is unknown/);
    expect(message).toMatch(/Nothing was sent/);
    expect(message).toMatch(/`pulumi refresh`/);
    expect(t.writes("/v1/numbers/buy")).toBe(1);
  });

  it("destroy does not succeed without cancelling: it says what is unknown and what to run", async () => {
    const t = await boughtUnrecorded();
    t.fault(miss(t.id));
    const err = await t.rt.delete(t.settings, t.id, t.state).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const { message } = err as Error;
    expect(message).toMatch(/not cancelled/);
    expect(message).toMatch(/may still be bought/);
    expect(message).toMatch(/`pulumi refresh`.*then destroy again/);
    expect(message).toMatch(/`pulumi state delete <urn>`/);
    expect(t.writes("/v1/numbers/cancel")).toBe(0);
    expect(await t.active()).toBe(true);
  });
});

describe("a number recorded without its E.164, found in the list", () => {
  it("refresh records its number; destroy cancels it", async () => {
    const t = await boughtUnrecorded();
    // Another number's item is unreadable: what the list shows is still seen.
    t.fault({ phase: "after", route: "/v1/numbers/list", items: { where: { number: "+1555*" }, set: { active: 7 } } });
    const read = await t.rt.read(t.settings, t.id, t.state);
    expect(read).toMatchObject({ id: t.id, props: { number: t.number, active: true } });
    await t.rt.delete(t.settings, t.id, t.state);
    expect(t.writes("/v1/numbers/cancel")).toBe(1);
    expect(await t.active()).toBe(false);
  });
});
