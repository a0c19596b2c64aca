import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ActionSchema,
  AgentSchema,
  CallSchema,
  endpoints,
  PhoneNumberSchema,
  VoiceSchema,
  WebhookSchema,
  pageOf,
} from "pulumi-voiceagent/schemas";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";

let t: TestEmulator;
let seedA: { voices: string[]; actions: string[]; webhooks: string[]; numbers: string[] };
let seedB: { voices: string[]; actions: string[]; webhooks: string[]; numbers: string[] };

beforeEach(async () => {
  t = await testEmulator();
  seedA = t.emu.seeds.get(t.tokenA)!;
  seedB = t.emu.seeds.get(t.tokenB)!;
});

async function makeAgent(token?: string) {
  const seed = token === t.tokenB ? seedB : seedA;
  const res = await t.call(
    "POST",
    "/v1/agents/create",
    { prompt: "Be helpful.", voice: seed.voices[0], actions: [] },
    token,
  );
  expect(res.status).toBe(200);
  return AgentSchema.parse(res.json);
}

describe("the 8 documented endpoints", () => {
  it("agents/create embeds the voice, actions and webhook in full", async () => {
    const res = await t.call("POST", "/v1/agents/create", {
      prompt: "You answer support calls.",
      voice: seedA.voices[1],
      actions: seedA.actions,
      initial_message: "Hello!",
      webhook: seedA.webhooks[0],
    });
    expect(res.status).toBe(200);
    const agent = AgentSchema.parse(res.json);
    expect(agent.voice).toEqual(VoiceSchema.parse({ ...agent.voice }));
    expect(agent.voice.id).toBe(seedA.voices[1]);
    expect(agent.actions.map((a) => a.id)).toEqual(seedA.actions);
    expect(agent.webhook?.id).toBe(seedA.webhooks[0]);
    expect(agent.initial_message).toBe("Hello!");
    expect(agent.user_id).toBe(t.emu.store.userFor(t.tokenA).userId);
  });

  it("GET /v1/agents/?id= returns one agent object, with and without the trailing slash", async () => {
    const agent = await makeAgent();
    for (const url of [`/v1/agents/?id=${agent.id}`, `/v1/agents?id=${agent.id}`]) {
      const res = await t.call("GET", url);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.json)).toBe(false);
      expect(AgentSchema.parse(res.json)).toEqual(agent);
    }
  });

  it("agents/update replaces the fields sent and keeps the rest; null clears", async () => {
    const agent = await makeAgent();
    const res = await t.call("POST", `/v1/agents/update?id=${agent.id}`, {
      actions: seedA.actions,
      initial_message: "Hi",
      webhook: seedA.webhooks[0],
    });
    expect(res.status).toBe(200);
    const updated = AgentSchema.parse(res.json);
    expect(updated.prompt).toBe("Be helpful.");
    expect(updated.voice.id).toBe(seedA.voices[0]);
    expect(updated.actions.map((a) => a.id)).toEqual(seedA.actions);
    const cleared = AgentSchema.parse(
      (await t.call("POST", `/v1/agents/update?id=${agent.id}`, { webhook: null, initial_message: null })).json,
    );
    expect(cleared.webhook).toBeNull();
    expect(cleared.initial_message).toBeNull();
    expect(cleared.actions.map((a) => a.id)).toEqual(seedA.actions);
  });

  it("numbers/update binds and unbinds by ?phone_number=", async () => {
    const agent = await makeAgent();
    const number = seedA.numbers[0]!;
    const bound = await t.call("POST", `/v1/numbers/update?phone_number=${encodeURIComponent(number)}`, {
      inbound_agent: agent.id,
    });
    expect(bound.status).toBe(200);
    const n = PhoneNumberSchema.parse(bound.json);
    expect(n.number).toBe(number);
    expect(n.inbound_agent?.id).toBe(agent.id);
    expect(n.active).toBe(true);
    const unbound = PhoneNumberSchema.parse(
      (await t.call("POST", `/v1/numbers/update?phone_number=${encodeURIComponent(number)}`, { inbound_agent: null }))
        .json,
    );
    expect(unbound.inbound_agent).toBeNull();
  });

  it("numbers/cancel deactivates, with or without a JSON content type, keeps inbound_agent, and the number cannot be bound again", async () => {
    const agent = await makeAgent();
    const number = encodeURIComponent(seedA.numbers[1]!);
    await t.call("POST", `/v1/numbers/update?phone_number=${number}`, { inbound_agent: agent.id });
    const noType = await t.emu.app.inject({
      method: "POST",
      url: `/v1/numbers/cancel?phone_number=${number}`,
      headers: t.auth(),
    });
    expect(noType.statusCode).toBe(200);
    const cancelled = PhoneNumberSchema.parse(noType.json());
    expect(cancelled.active).toBe(false);
    // The real service keeps the binding: its early clients cannot parse null there (docs/decisions.md §1).
    expect(cancelled.inbound_agent?.id).toBe(agent.id);
    expect(
      PhoneNumberSchema.parse((await t.call("GET", `/v1/numbers?phone_number=${number}`)).json).inbound_agent?.id,
    ).toBe(agent.id);
    const withType = await t.emu.app.inject({
      method: "POST",
      url: `/v1/numbers/cancel?phone_number=${number}`,
      headers: { ...t.auth(), "content-type": "application/json" },
    });
    expect(withType.statusCode).toBe(200);
    const rebind = await t.call("POST", `/v1/numbers/update?phone_number=${number}`, { inbound_agent: agent.id });
    expect(rebind.status).toBe(422);
    expect(rebind.json.detail[0].loc).toEqual(["query", "phone_number"]);
    const unbound = PhoneNumberSchema.parse(
      (await t.call("POST", `/v1/numbers/update?phone_number=${number}`, { inbound_agent: null })).json,
    );
    expect(unbound).toMatchObject({ active: false, inbound_agent: null });
  });

  it("calls/create starts not_started; calls/end answers the ended call, twice", async () => {
    const agent = await makeAgent();
    const res = await t.call("POST", "/v1/calls/create", {
      from_number: seedA.numbers[0],
      to_number: "+15557654321",
      agent: agent.id,
    });
    expect(res.status).toBe(200);
    const call = CallSchema.parse(res.json);
    expect(call.status).toBe("not_started");
    expect(call.agent.id).toBe(agent.id);
    expect(call.recording_available).toBe(false);
    for (let i = 0; i < 2; i++) {
      const ended = await t.emu.app.inject({ method: "POST", url: `/v1/calls/end?id=${call.id}`, headers: t.auth() });
      expect(ended.statusCode).toBe(200);
      expect(CallSchema.parse(ended.json()).status).toBe("ended");
    }
  });

  it("voices/update replaces the voice and agents embed the new values", async () => {
    const agent = await makeAgent();
    const res = await t.call("POST", `/v1/voices/update?id=${seedA.voices[0]}`, {
      type: "voice_rime",
      voice_name: "nova",
      pitch: 2,
      rate: 3,
    });
    expect(res.status).toBe(200);
    expect(VoiceSchema.parse(res.json)).toMatchObject({ type: "voice_rime", voice_name: "nova", pitch: 2, rate: 3 });
    const again = AgentSchema.parse((await t.call("GET", `/v1/agents/?id=${agent.id}`)).json);
    expect(again.voice.voice_name).toBe("nova");
  });
});

describe("extension endpoints", () => {
  it("create, read and update voices, actions and webhooks", async () => {
    const voice = VoiceSchema.parse(
      (await t.call("POST", "/v1/voices/create", { voice_name: "echo", pitch: 0, rate: 1 })).json,
    );
    expect(voice.type).toBe("voice_base");
    expect(VoiceSchema.parse((await t.call("GET", `/v1/voices?id=${voice.id}`)).json)).toEqual(voice);

    const action = ActionSchema.parse(
      (await t.call("POST", "/v1/actions/create", { config: { phone_number: "+15551112222" } })).json,
    );
    expect(action).toMatchObject({ type: "action_end_conversation", config: { phone_number: "+15551112222" } });
    const moved = ActionSchema.parse(
      (await t.call("POST", `/v1/actions/update?id=${action.id}`, { type: "action_transfer_call", config: {} })).json,
    );
    expect(moved.type).toBe("action_transfer_call");
    expect(ActionSchema.parse((await t.call("GET", `/v1/actions?id=${action.id}`)).json)).toEqual(moved);

    const hook = WebhookSchema.parse(
      (
        await t.call("POST", "/v1/webhooks/create", {
          url: "https://example.com/h",
          method: "GET",
          subscriptions: ["event_message"],
        })
      ).json,
    );
    const hook2 = WebhookSchema.parse(
      (
        await t.call("POST", `/v1/webhooks/update?id=${hook.id}`, {
          url: "https://example.com/h2",
          subscriptions: ["event_recording"],
        })
      ).json,
    );
    expect(hook2).toMatchObject({ url: "https://example.com/h2", method: "POST", subscriptions: ["event_recording"] });
    expect(WebhookSchema.parse((await t.call("GET", `/v1/webhooks?id=${hook.id}`)).json)).toEqual(hook2);
  });

  it("reads numbers and calls, buys numbers, and pages every list", async () => {
    const agent = await makeAgent();
    const n = PhoneNumberSchema.parse(
      (await t.call("GET", `/v1/numbers?phone_number=${encodeURIComponent(seedA.numbers[0]!)}`)).json,
    );
    expect(n.active).toBe(true);
    const bought = PhoneNumberSchema.parse(
      (await t.call("POST", "/v1/numbers/buy", { area_code: "415", inbound_agent: agent.id })).json,
    );
    expect(bought.number).toMatch(/^\+1415\d{7}$/);
    expect(bought.inbound_agent?.id).toBe(agent.id);
    const call = CallSchema.parse(
      (
        await t.call("POST", "/v1/calls/create", {
          from_number: bought.number,
          to_number: "+15550000001",
          agent: agent.id,
        })
      ).json,
    );
    expect(CallSchema.parse((await t.call("GET", `/v1/calls?id=${call.id}`)).json)).toEqual(call);

    const page1 = pageOf(PhoneNumberSchema).parse((await t.call("GET", "/v1/numbers/list?page=1&size=3")).json);
    expect(page1).toMatchObject({ page: 1, size: 3, total: 5, has_more: true });
    expect(page1.items).toHaveLength(3);
    const page2 = pageOf(PhoneNumberSchema).parse((await t.call("GET", "/v1/numbers/list?page=2&size=3")).json);
    expect(page2).toMatchObject({ total: 5, has_more: false });
    expect(page2.items.map((i) => i.number)).not.toContain(page1.items[0]!.number);
    for (const kind of ["agents", "voices", "calls", "actions", "webhooks"]) {
      const res = await t.call("GET", `/v1/${kind}/list`);
      expect(res.status).toBe(200);
      expect(res.json.items.length).toBeGreaterThan(0);
    }
  });
});

describe("auth and tenancy", () => {
  const routes = Object.values(endpoints);

  it.each(routes.map((r) => [r.method, r.path] as const))(
    "%s %s: 401 without, with a malformed and with an unknown token",
    async (method, path) => {
      const url = `${path}?id=${randomUUID()}&phone_number=%2B15550010001`;
      const cases = [
        {},
        { authorization: "Token abc" },
        { authorization: "Bearer" },
        { authorization: `Bearer nope-${randomUUID()}` },
      ];
      for (const headers of cases) {
        const res = await t.emu.app.inject({ method, url, headers });
        expect(res.statusCode).toBe(401);
        expect(typeof res.json().detail).toBe("string");
      }
    },
  );

  it("another user's objects do not exist: 404 with no hint", async () => {
    const agentB = await makeAgent(t.tokenB);
    const other = await t.call("GET", `/v1/agents/?id=${agentB.id}`);
    const missing = await t.call("GET", `/v1/agents/?id=${randomUUID()}`);
    expect(other.status).toBe(404);
    expect(other.json).toEqual(missing.json);
    expect((await t.call("POST", `/v1/agents/update?id=${agentB.id}`, { prompt: "x" })).status).toBe(404);
    expect(
      (await t.call("POST", `/v1/voices/update?id=${seedB.voices[0]}`, { voice_name: "x", pitch: 0, rate: 0 })).status,
    ).toBe(404);
    expect(
      (
        await t.call("POST", `/v1/numbers/update?phone_number=${encodeURIComponent(seedB.numbers[0]!)}`, {
          inbound_agent: null,
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.call("POST", `/v1/numbers/cancel?phone_number=${encodeURIComponent(seedB.numbers[0]!)}`)).status,
    ).toBe(404);
    const callB = CallSchema.parse(
      (
        await t.call(
          "POST",
          "/v1/calls/create",
          { from_number: seedB.numbers[0], to_number: "+15550000002", agent: agentB.id },
          t.tokenB,
        )
      ).json,
    );
    expect(
      (await t.emu.app.inject({ method: "POST", url: `/v1/calls/end?id=${callB.id}`, headers: t.auth() })).statusCode,
    ).toBe(404);
  });

  it("references to another user's voice, action, webhook or agent are 422 naming the field", async () => {
    const agentB = await makeAgent(t.tokenB);
    const create = await t.call("POST", "/v1/agents/create", {
      prompt: "p",
      voice: seedB.voices[0],
      actions: [seedA.actions[0], seedB.actions[0]],
      webhook: seedB.webhooks[0],
    });
    expect(create.status).toBe(422);
    expect(create.json.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ["body", "voice"],
      ["body", "actions", 1],
      ["body", "webhook"],
    ]);
    const bind = await t.call("POST", `/v1/numbers/update?phone_number=${encodeURIComponent(seedA.numbers[0]!)}`, {
      inbound_agent: agentB.id,
    });
    expect(bind.json.detail[0].loc).toEqual(["body", "inbound_agent"]);
    const call = await t.call("POST", "/v1/calls/create", {
      from_number: seedA.numbers[0],
      to_number: "+15550000003",
      agent: agentB.id,
    });
    expect(call.json.detail[0].loc).toEqual(["body", "agent"]);
    const fromB = await t.call("POST", "/v1/calls/create", {
      from_number: seedB.numbers[0],
      to_number: "+15550000003",
      agent: (await makeAgent()).id,
    });
    expect(fromB.json.detail[0].loc).toEqual(["body", "from_number"]);
  });
});
