// Every failure becomes one ApiError subclass with status, code, method, path and request id.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiAuthError,
  ApiConnectionError,
  ApiError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiSchemaError,
  ApiValidationError,
  createClient,
  type RequestLogEvent,
} from "pulumi-voiceagent/client";
import { startRecordingServer, type Answer, type RecordingServer } from "../helpers/recording-server.js";

let server: RecordingServer | undefined;
afterEach(async () => server?.close());
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

async function failWith(answer: Answer, opts = {}) {
  server = await startRecordingServer(() => ({ headers: { "x-request-id": "req-42" }, ...answer }));
  const client = createClient({ baseUrl: server.url, token: "t0ken-value", ...fast, ...opts });
  return client.agents.get(randomUUID()).then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as ApiError,
  );
}

describe("error mapping", () => {
  it("401 is ApiAuthError telling what to check", async () => {
    const e = await failWith({ status: 401, json: { detail: "Invalid token" } });
    expect(e).toBeInstanceOf(ApiAuthError);
    expect(e).toMatchObject({ status: 401, code: "E_AUTH", method: "GET", requestId: "req-42" });
    expect(e.path).toMatch(/^\/v1\/agents\?id=/);
    // What a user needs: the status, the service's own reason, and what to check. The client is
    // usable without Pulumi: which setting holds the token is its callers' to say (kit/errors.ts, cli/errors.ts).
    expect(e.message).toMatch(/\b401\b/);
    expect(e.message).toContain("Invalid token");
    expect(e.message).toMatch(/check the token/i);
    expect(e.message).not.toMatch(/voiceagent:|VOICEAGENT_|pulumi/i);
    expect(server!.requests).toHaveLength(1);
  });

  it("404 is ApiNotFoundError", async () => {
    const e = await failWith({ status: 404, json: { detail: "Agent not found" } });
    expect(e).toBeInstanceOf(ApiNotFoundError);
    expect(e.message).toMatch(/\b404\b/);
    expect(e.message).toContain("/v1/agents");
    expect(e.message).toContain("Agent not found");
    expect(e.detail).toBe("Agent not found");
  });

  it("422 is ApiValidationError with field paths", async () => {
    const detail = [{ loc: ["body", "voice"], msg: "voice not found", type: "value_error.not_found" }];
    const e = await failWith({ status: 422, json: { detail } });
    expect(e).toBeInstanceOf(ApiValidationError);
    expect((e as ApiValidationError).issues).toEqual(detail);
    expect(e.message).toMatch(/\b422\b/);
    expect(e.message).toMatch(/\bvoice\b.*voice not found/);
  });

  // A 429 is retried until the operation's time budget, not `retry.limit` times (retry.test.ts proves
  // that): a short budget here, so the 429s end in the error.
  it("429 honours Retry-After until the budget is spent, then is ApiRateLimitError with retryAfterMs", async () => {
    const e = await failWith(
      { status: 429, json: { detail: "slow down" }, headers: { "retry-after": "0" } },
      { retry: { limit: 2, baseDelayMs: 1, budgetMs: 500 } },
    );
    expect(e).toBeInstanceOf(ApiRateLimitError);
    expect((e as ApiRateLimitError).retryAfterMs).toBe(0);
    expect(e.attempts).toBeGreaterThanOrEqual(1);
    expect(server!.requests).toHaveLength(e.attempts);
  });

  it("a Retry-After beyond the bound is not waited for", async () => {
    const events: RequestLogEvent[] = [];
    const e = await failWith(
      { status: 429, json: { detail: "later" }, headers: { "retry-after": "3600" } },
      { onRequest: (x: RequestLogEvent) => events.push(x) },
    );
    expect(e).toBeInstanceOf(ApiRateLimitError);
    expect((e as ApiRateLimitError).retryAfterMs).toBe(3_600_000);
    expect(e.message).toMatch(/\b3600 ?s|\b1 ?h|\b60 ?min/);
    // No retry was scheduled (a scheduled one is logged with its wait before it starts).
    expect(events.map((x) => x.event)).toEqual(["error"]);
    expect(server!.requests).toHaveLength(1);
  });

  it.each([500, 503])("%i is a server error after the retries", async (status) => {
    const e = await failWith({ status, json: { detail: "boom" } }, { retry: { limit: 2 } });
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status, code: "E_SERVER", attempts: 3 });
    expect(e.message).toMatch(new RegExp(`\\b${status}\\b`));
    expect(e.message).toMatch(/\b3 (attempts|tries|times)\b/);
    expect(e.message).toContain("boom");
  });

  it("connection refused is ApiConnectionError with status 0 naming the address", async () => {
    const s = await startRecordingServer(() => ({}));
    const url = s.url;
    await s.close();
    const client = createClient({ baseUrl: url, token: "t0ken-value", retry: { limit: 1, baseDelayMs: 1 } });
    const e = (await client.agents.get(randomUUID()).catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiConnectionError);
    expect(e).toMatchObject({ status: 0, code: "E_CONNECTION", attempts: 2 });
    // Names the address and the cause, and what to check.
    expect(e.message).toContain(url);
    expect(e.message).toContain("ECONNREFUSED");
    expect(e.message).toMatch(/is the service running/i);
    expect(e.message).not.toMatch(/voiceagent:|VOICEAGENT_|pulumi/i);
  });

  it("a timeout is ApiConnectionError with code E_TIMEOUT", async () => {
    const e = await failWith({ delayMs: 500, json: {} }, { timeoutMs: 100, retry: { limit: 0 } });
    expect(e).toBeInstanceOf(ApiConnectionError);
    expect(e).toMatchObject({ status: 0, code: "E_TIMEOUT" });
  });

  it("a 200 that is not JSON, or not the expected shape, is ApiSchemaError naming the field", async () => {
    const notJson = await failWith({ text: "<html>hello</html>" });
    expect(notJson).toBeInstanceOf(ApiSchemaError);
    expect(notJson.message).toMatch(/\bJSON\b/);
    expect(notJson.message).toContain("base URL");
    expect(notJson.message).not.toMatch(/voiceagent:|VOICEAGENT_|pulumi/i);
    const wrong = await failWith({ json: { id: "not-a-uuid", user_id: randomUUID(), prompt: 1 } });
    expect(wrong).toBeInstanceOf(ApiSchemaError);
    expect(wrong.message).toMatch(/\bid\b.*\bUUID\b/);
    expect(wrong.message).toContain("prompt:");
    expect(wrong.message).toContain("voice:");
  });
});
