// With a recognizable token, no error or log event the client produces contains it.
import { inspect } from "node:util";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, type ApiError, type RequestLogEvent } from "pulumi-voiceagent/client";
import { startRecordingServer, type Answer, type RecordingServer } from "../helpers/recording-server.js";

const TOKEN = `SECRET-${randomUUID()}-TOKEN`;
let server: RecordingServer | undefined;
afterEach(async () => server?.close());

function everythingAbout(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 10; depth++) {
    const err = cur as Error & Record<string, unknown>;
    parts.push(
      String(err.message),
      String(err.stack),
      JSON.stringify(err),
      inspect(err, { depth: 10, showHidden: true }),
    );
    for (const key of Object.getOwnPropertyNames(err)) parts.push(inspect(err[key], { depth: 10, showHidden: true }));
    cur = err.cause;
  }
  return parts.join("\n");
}

const answers: [string, Answer][] = [
  ["401 echoing the token", { status: 401, json: { detail: `token ${TOKEN} is invalid` } }],
  [
    "422 echoing the token",
    { status: 422, json: { detail: [{ loc: ["header", "authorization"], msg: `bad ${TOKEN}`, type: "x" }] } },
  ],
  ["500", { status: 500, json: { detail: "boom" } }],
  ["429", { status: 429, headers: { "retry-after": "0" }, json: { detail: "slow" } }],
  ["malformed JSON", { text: `{"oops": "${TOKEN}"` }],
  ["wrong shape", { json: { id: TOKEN } }],
  ["reset", { reset: true }],
  ["timeout", { delayMs: 300, json: {} }],
];

describe("the token never leaks", () => {
  it.each(answers)("%s", async (_name, answer) => {
    server = await startRecordingServer(() => answer);
    const events: RequestLogEvent[] = [];
    const client = createClient({
      baseUrl: server.url,
      token: TOKEN,
      timeoutMs: 100,
      // A 429 is retried until the budget, however many times: a short one ends it.
      retry: { limit: 1, baseDelayMs: 1, budgetMs: 500 },
      onRequest: (e) => events.push(e),
    });
    const err = (await client.agents.get(randomUUID()).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(Error);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(everythingAbout(err)).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(events.at(-1)?.headers.authorization).toBe("Bearer [REDACTED]");
  });

  it("connection refused", async () => {
    const s = await startRecordingServer(() => ({}));
    await s.close();
    const client = createClient({ baseUrl: s.url, token: TOKEN, retry: { limit: 0 } });
    const err = await client.voices.get(randomUUID()).catch((e: unknown) => e);
    expect(everythingAbout(err)).not.toContain(TOKEN);
  });
});
