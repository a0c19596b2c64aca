// A 404 proves an object gone only where its collection answers (DESIGN.md §10's caveat): at a
// voiceagent:baseUrl that is not the service (another service, a gateway routing nothing under /v1)
// every route answers 404, and a refresh that took that for "deleted outside Pulumi" would drop
// every object from the state, so that the next `up` made them all again (a duplicate agent is
// permanent; the service has no delete).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../provider/client/index.js";
import { runtimeFor as runtimeIn } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";

const notes: string[] = [];
const host = new Host({ notes: (text) => notes.push(text) });
const runtimeFor = (kind: Parameters<typeof runtimeIn>[0]) => runtimeIn(kind, host);

let emu: RunningEmulator;
/** Not the service: a server that answers 404 to everything, as a gateway routing nothing under /v1 does. */
let elsewhere: Server;
let elsewhereUrl = "";
const token = `base-url-${randomUUID()}`;
beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], seed: true, api: "2024" });
  elsewhere = createServer((_req, res) => {
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Not Found" }));
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emu.close();
  await new Promise((resolve) => elsewhere.close(resolve));
});

describe("a read that answers 404", () => {
  it("keeps what was recorded when the collection's list answers 404 too (the base URL is not the service), and says so", async () => {
    const user = emu.store.userFor(token).userId;
    const voice = emu.seeds.get(token)!.voices[0]!;
    const agent = emu.service.createAgent(user, { prompt: "You are kept.", voice, actions: [] });
    const prompt = await createClient({ baseUrl: emu.url, token, api: "2024" }).prompts.create({
      content: "Kept too.",
    });
    const wrong = { baseUrl: elsewhereUrl, token, api: "2024" };
    const recorded = { prompt: "You are kept.", voice };

    expect(await runtimeFor("Agent").read(wrong, agent.id, recorded)).toEqual({ id: agent.id, props: recorded });
    expect(await runtimeFor("Prompt").read(wrong, prompt.id, { content: "Kept too." })).toEqual({
      id: prompt.id,
      props: { content: "Kept too." },
    });
    expect(notes.join("\n")).toMatch(/Agent .*answered 404.*kept as recorded.*voiceagent:baseUrl/);
    expect(notes.join("\n")).toMatch(/Prompt .*answered 404.*kept as recorded/);
  });

  it("is gone when the collection answers at that base URL: a 404 there is the object's own", async () => {
    const right = { baseUrl: emu.url, token, api: "2024" };
    expect(await runtimeFor("Agent").read(right, randomUUID(), { prompt: "Gone.", voice: randomUUID() })).toEqual({
      id: "",
      props: {},
    });
    expect(await runtimeFor("Prompt").read(right, randomUUID(), { content: "Gone." })).toEqual({ id: "", props: {} });
  });
});
