// The riskiest piece, proven with the real engine: a dynamic provider that loads this package's
// ESM client inside its serialized closure, driven by the CLI through the Automation API.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, findSecretInState, type TestStack } from "../helpers/pulumi-stack.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";

const TOKEN = `smoke-token-${randomUUID()}`;
const VOICE_ID = randomUUID();
const USER_ID = randomUUID();

describe("smoke: real Pulumi CLI + dynamic provider + ESM client", () => {
  let server: RecordingServer;
  let t: TestStack;

  beforeAll(async () => {
    server = await startRecordingServer((req) => {
      if (req.method === "POST" && req.path === "/v1/voices/update") {
        const body = JSON.parse(req.body) as { voice_name: string; type: string; pitch: number; rate: number };
        return { json: { id: req.query.id, user_id: USER_ID, ...body } };
      }
      return { status: 404, json: { detail: "Not Found" } };
    });
    t = await createTestStack({
      name: "smoke",
      program: "dist/test/e2e/fixtures/smoke/index.js",
      config: {
        "voiceagent:baseUrl": { value: server.url },
        "voiceagent:token": { value: TOKEN, secret: true },
        "smoke:voiceId": { value: VOICE_ID },
      },
    });
  });

  afterAll(async () => {
    await t?.dispose();
    await server?.close();
  });

  it("up creates through the client, a second up and a preview change nothing, destroy forgets", async () => {
    const up = await t.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.voiceName?.value).toBe("alloy");
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/v1/voices/update");
    expect(req?.query).toEqual({ id: VOICE_ID });
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req?.headers["content-type"]).toMatch(/application\/json/);
    expect(JSON.parse(req?.body ?? "")).toEqual({ type: "voice_base", voice_name: "alloy", pitch: 1, rate: 1 });

    const again = await t.stack.up();
    expect(again.summary.resourceChanges).toEqual({ same: 2 });
    const preview = await t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(server.requests).toHaveLength(1);

    expect(await findSecretInState(t, TOKEN)).toEqual([]);

    const destroy = await t.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
  }, 240_000);

  it("fails the up, naming the address, when the server is down", async () => {
    const down = await startRecordingServer(() => ({ status: 500 }));
    const url = down.url;
    await down.close();
    await t.stack.setConfig("voiceagent:baseUrl", { value: url });
    const error = await t.stack.up().then(
      () => "the up succeeded",
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    // Names the address and the cause.
    expect(error).toContain(url);
    expect(error).toContain("ECONNREFUSED");
  });
});
