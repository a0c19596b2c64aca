// serviceDefaults (issue 48): the current API's answers carry the service's defaults for the fields
// a request left out, in every answer of the object (create, get, update, list page, a number's
// embedded agent); a value set is answered as it is; off, and on the interface, nothing is added.
import { describe, expect, it } from "vitest";
import { SERVICE_DEFAULTS } from "../../emulator/service-defaults.js";
import { testEmulator } from "../helpers/emulator.js";

describe("serviceDefaults", () => {
  it("the current API answers an agent's and a number's defaults wherever the object is answered", async () => {
    const t = await testEmulator({ api: "2024", serviceDefaults: true });
    const seed = t.emu.seeds.get(t.tokenA)!;
    const made = await t.call("POST", "/v1/agents/create", { prompt: "You book visits.", voice: seed.voices[0] });
    expect(made.status).toBe(200);
    const id = made.json.id;
    const agentDefaults = SERVICE_DEFAULTS["2024"].agent;
    expect(agentDefaults).toEqual({ ivr_navigation_mode: "default" });
    expect(made.json).toMatchObject(agentDefaults!);
    expect((await t.call("GET", `/v1/agents?id=${id}`)).json).toMatchObject(agentDefaults!);
    const page = await t.call("GET", "/v1/agents/list?page=1&size=50");
    expect(page.json.items.find((a: { id: string }) => a.id === id)).toMatchObject(agentDefaults!);

    const bound = await t.call("POST", `/v1/numbers/update?phone_number=${encodeURIComponent(seed.numbers[0]!)}`, {
      inbound_agent: id,
    });
    expect(bound.json).toMatchObject({ outbound_only: false, inbound_agent: { id, ...agentDefaults } });

    // Set, the value stands; it is stored as sent, not as the default.
    const off = await t.call("POST", `/v1/agents/update?id=${id}`, { ivr_navigation_mode: "off" });
    expect(off.json.ivr_navigation_mode).toBe("off");
    expect((await t.call("GET", `/v1/agents?id=${id}`)).json.ivr_navigation_mode).toBe("off");
    await t.emu.app.close();
  });

  it("off, or on the interface (2023), answers leave those fields out", async () => {
    for (const extra of [{ api: "2024" as const }, { api: "2023" as const, serviceDefaults: true }]) {
      const t = await testEmulator(extra);
      const seed = t.emu.seeds.get(t.tokenA)!;
      const made = await t.call("POST", "/v1/agents/create", { prompt: "You book visits.", voice: seed.voices[0] });
      expect(made.status).toBe(200);
      expect(made.json).not.toHaveProperty("ivr_navigation_mode");
      const number = await t.call("GET", `/v1/numbers?phone_number=${encodeURIComponent(seed.numbers[0]!)}`);
      expect(number.json).not.toHaveProperty("outbound_only");
      await t.emu.app.close();
    }
  });
});
