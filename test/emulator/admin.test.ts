// Admin API: counters and their reset, and fleets of numbers for large end-to-end runs.
import { beforeEach, describe, expect, it } from "vitest";
import { HttpFailure } from "voiceagent-emulator";
import { PhoneNumberSchema } from "pulumi-voiceagent/schemas";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";

let t: TestEmulator;
beforeEach(async () => {
  t = await testEmulator();
});
const numbersOf = async (token?: string): Promise<string[]> =>
  (await t.call("GET", "/v1/numbers/list?size=100", undefined, token)).json.items.map(
    (n: { number: string }) => n.number,
  );

describe("stats", () => {
  it("counts requests, writes and faults, and POST /admin/stats/reset zeroes them all", async () => {
    const voice = t.emu.seeds.get(t.tokenA)!.voices[0];
    t.emu.faults.add({ route: "/v1/voices/list", status: 503, count: 1 });
    await t.call("GET", "/v1/voices/list");
    await t.call("POST", "/v1/agents/create", { prompt: "p", voice });
    await t.call("POST", "/v1/agents/create", { prompt: "p" });
    const stats = (await t.call("GET", "/admin/stats")).json;
    expect(stats).toEqual({
      total: 3,
      byRoute: { "GET /v1/voices/list": 1, "POST /v1/agents/create": 2 },
      writes: { "POST /v1/agents/create": 1 },
      faults: { before: { "GET /v1/voices/list": 1 }, after: {} },
      rateLimited: {},
    });
    expect(t.emu.stats).toEqual(stats);
    const held = t.emu.stats;
    const reset = (await t.call("POST", "/admin/stats/reset")).json;
    expect(reset).toEqual({ total: 0, byRoute: {}, writes: {}, faults: { before: {}, after: {} }, rateLimited: {} });
    expect(held).toEqual(reset);
    await t.call("POST", "/v1/agents/create", { prompt: "q", voice });
    expect(held.writes).toEqual({ "POST /v1/agents/create": 1 });
    t.emu.resetStats();
    expect(held.total).toBe(0);
  });
});

describe("stats count every request", () => {
  it(`a request to a path the service does not have is counted (a wrong baseUrl path is not invisible); the test's own /admin calls are \
not`, async () => {
    await t.call("GET", "/api/v1/agents/list");
    await t.call("POST", "/agents/create", { prompt: "p" });
    await t.call("GET", "/admin/stats");
    expect(t.emu.stats.total).toBe(2);
    expect(t.emu.stats.byRoute).toEqual({ "GET /api/v1/agents/list": 1, "POST /agents/create": 1 });
  });
});

describe("POST /admin/numbers", () => {
  it("adds explicit numbers, active and bindable; again is a no-op", async () => {
    const body = { numbers: ["+14155550100", "+14155550101", "+14155550100"] };
    const res = await t.call("POST", "/admin/numbers", body);
    expect(res).toMatchObject({
      status: 200,
      json: { numbers: ["+14155550100", "+14155550101"], added: ["+14155550100", "+14155550101"] },
    });
    const again = await t.call("POST", "/admin/numbers", body);
    expect(again.json).toEqual({ numbers: ["+14155550100", "+14155550101"], added: [] });
    expect((await numbersOf()).filter((n) => n.startsWith("+1415"))).toEqual(["+14155550100", "+14155550101"]);
    const number = PhoneNumberSchema.parse((await t.call("GET", "/v1/numbers?phone_number=%2B14155550101")).json);
    expect(number).toMatchObject({ active: true, inbound_agent: null });
  });

  it("generates count numbers from a prefix, 11 digits in all", async () => {
    const res = await t.call("POST", "/admin/numbers", { count: 150, prefix: "+1555777" });
    expect(res.json.added).toHaveLength(150);
    expect(res.json.numbers[0]).toBe("+15557770001");
    expect(res.json.numbers[149]).toBe("+15557770150");
    expect((await t.call("GET", "/v1/numbers/list")).json.total).toBe(154);
  });

  it("409 naming a number another user owns, and then adds none of them", async () => {
    const theirs = t.emu.seeds.get(t.tokenB)!.numbers[0]!;
    const res = await t.call("POST", "/admin/numbers", { numbers: ["+14155550199", theirs] });
    expect(res.status).toBe(409);
    expect(res.json.detail).toContain(theirs);
    expect(await numbersOf()).not.toContain("+14155550199");
  });

  it("422 naming the field for a bad number or a bad combination", async () => {
    const cases: [unknown, (string | number)[]][] = [
      [{ numbers: ["+14155550100", "4155550101"] }, ["body", "numbers", 1]],
      [{ numbers: [] }, ["body", "numbers"]],
      [{ count: 5 }, ["body", "prefix"]],
      [{ count: 5, prefix: "1555" }, ["body", "prefix"]],
      [{ count: 100, prefix: "+1555777777" }, ["body", "count"]],
      [{ numbers: ["+14155550100"], count: 1, prefix: "+1" }, ["body"]],
      [{}, ["body"]],
    ];
    for (const [body, loc] of cases) {
      const res = await t.call("POST", "/admin/numbers", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.json.detail.map((d: { loc: unknown }) => d.loc),
        JSON.stringify(body),
      ).toContainEqual(loc);
    }
    expect(await numbersOf()).toHaveLength(4);
  });

  it("needs a token, like every admin route", async () => {
    const res = await t.emu.app.inject({ method: "POST", url: "/admin/numbers", payload: { count: 1, prefix: "+1" } });
    expect(res.statusCode).toBe(401);
  });

  it("has an in-process twin: emu.addNumbers(token, input)", () => {
    expect(t.emu.addNumbers(t.tokenB, { count: 3, prefix: "+1212555" })).toEqual({
      numbers: ["+12125550001", "+12125550002", "+12125550003"],
      added: ["+12125550001", "+12125550002", "+12125550003"],
    });
    expect(() => t.emu.addNumbers(t.tokenA, { numbers: ["+12125550002"] })).toThrow(HttpFailure);
  });
});
