// Failure messages: what failed, whether the service may have acted, what to do; no sentence twice.
import { describe, expect, it } from "vitest";
import {
  ApiAmbiguousCreateError,
  ApiAuthError,
  ApiConnectionError,
  ApiError,
  ApiNotFoundError,
  ApiOutcomeUnknownError,
  ApiRateLimitError,
  ApiValidationError,
} from "../../provider/client/index.js";
import { explain, isGone, type FailureContext } from "../../provider/resources/kit/errors.js";
import { Refusal } from "../../provider/resources/kit/refusal.js";

const at = { method: "POST", path: "/v1/agents/create" };
const sentences = (text: string) =>
  text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
const ctx = (op: FailureContext["op"]): FailureContext => ({
  kind: "Agent",
  op,
  adopt: "agentId",
  names: { initial_message: "initialMessage" },
});

const cases: [string, FailureContext["op"], ApiError, RegExp][] = [
  [
    "422 names the property",
    "create",
    new ApiValidationError("x", { ...at, status: 422, summary: "POST /v1/agents/create was rejected (422)" }, [
      { loc: ["body", "initial_message"], msg: "too long", type: "x" },
    ]),
    /refused initialMessage: too long, and changed nothing/,
  ],
  [
    "401",
    "create",
    new ApiAuthError("x", { ...at, status: 401, summary: "refused (401)" }),
    /changed nothing\. Set a valid token: pulumi config set --secret voiceagent:token/,
  ],
  [
    "refused connection",
    "create",
    new ApiConnectionError("x", { ...at, status: 0, summary: "could not reach", mayHaveActed: false }, false),
    /Nothing reached the service\. Check voiceagent:baseUrl \(or VOICEAGENT_BASE_URL\)/,
  ],
  [
    "429",
    "create",
    new ApiRateLimitError("x", { ...at, status: 429, summary: "rate limited" }, 1000),
    /did not act on it\. Run the command again later/,
  ],
  [
    "create, 503 lost",
    "create",
    new ApiError("x", { ...at, code: "E_SERVER", status: 503, summary: "server error (503)", mayHaveActed: true }),
    /may have made it\. Before running `pulumi up` again, look for it.*voiceagent audit.*set agentId to adopt it/,
  ],
  [
    "update, reset",
    "update",
    new ApiConnectionError("x", { ...at, status: 0, summary: "connection broke", mayHaveActed: true }, false),
    /may have applied the change\. Running `pulumi up` again is safe/,
  ],
  [
    "gone",
    "update",
    new ApiNotFoundError("x", { ...at, status: 404, summary: "not found (404)" }),
    /deleted outside Pulumi.*pulumi refresh/,
  ],
  // Nothing existed before a create: the route or a named object is what is missing, not the object.
  [
    "404 on create",
    "create",
    new ApiNotFoundError("x", {
      method: "POST",
      path: "/v1/numbers/update?phone_number=…",
      status: 404,
      summary: "not found (404)",
    }),
    /changed nothing: it has no route POST \/v1\/numbers\/update at voiceagent:baseUrl .*root URL.*a number it does not own/,
  ],
  [
    "ambiguous",
    "create",
    new ApiAmbiguousCreateError(
      "POST /v1/agents/create failed (503). The list shows 2 new agents matching this request exactly (a, b); none was taken, to avoid guessing.",
      { ...at, status: 503, summary: "failed (503)" },
      ["a", "b"],
    ),
    /2 new agents.*\(a, b\).*set agentId to the id of the one to keep/,
  ],
  [
    "create, unknown outcome and no way to check",
    "create",
    new ApiOutcomeUnknownError(
      "POST /v1/agents/create failed (503). The service may have made the agent, and this server has no list route to check whether it did.",
      { ...at, status: 503, summary: "failed (503)", mayHaveActed: true },
    ),
    /no list route.*\. Before running `pulumi up` again, look for it/,
  ],
  [
    "nothing made after retries",
    "create",
    new ApiOutcomeUnknownError(
      "failed (503). The time budget is spent: 6 attempts, and the list shows that none of them made an agent.",
      { ...at, status: 503, summary: "failed (503)", mayHaveActed: false },
    ),
    /none of them made.*did not act on it/,
  ],
];

describe("explain", () => {
  it.each(cases)("%s", (_name, op, err, expected) => {
    const message = explain(ctx(op), err).message;
    expect(message).toMatch(new RegExp(`^voiceagent:Agent ${op} failed: `));
    expect(message).toMatch(expected);
    expect(message.match(/may have made/g)?.length ?? 0).toBeLessThanOrEqual(1);
    const all = sentences(message);
    expect(new Set(all).size).toBe(all.length);
  });

  it("a create's 404 never gives the read/update advice (deleted outside Pulumi, pulumi refresh)", () => {
    const message = explain(
      ctx("create"),
      new ApiNotFoundError("x", { ...at, status: 404, summary: "not found (404)" }),
    ).message;
    expect(message).not.toMatch(/deleted outside Pulumi|pulumi refresh/);
  });

  it("never says a create is safe to retry", () => {
    for (const [, op, err] of cases) {
      if (op === "create") expect(explain(ctx(op), err).message).not.toMatch(/safe to retry/i);
    }
  });

  it("keeps the service's code, whether it may have acted, and the client's error as cause; only the words change", () => {
    for (const [, op, err] of cases) {
      const explained = explain(ctx(op), err);
      expect(explained).toMatchObject({ code: err.code, mayHaveActed: err.mayHaveActed });
      expect(explained.cause).toBe(err);
    }
  });

  it("a lookup's refused token gets a resource's advice: the config key that sets it", () => {
    const err = new ApiAuthError(
      "GET /v1/voices/list was refused (401): Invalid token. Check the token the client was given.",
      {
        method: "GET",
        path: "/v1/voices/list",
        status: 401,
        summary: "GET /v1/voices/list was refused (401): Invalid token",
      },
    );
    const asLookup = explain({ kind: "getVoice", op: "invoke" }, err);
    const asResource = explain({ kind: "Voice", op: "read" }, err);
    expect(asLookup.message).toMatch(/^voiceagent:getVoice failed: .*\(401\)/);
    expect(asLookup.message).toMatch(/pulumi config set --secret voiceagent:token/);
    expect(asLookup.message.replace(/^[^:]+:[^:]+:/, "")).toBe(asResource.message.replace(/^[^:]+:[^:]+:/, ""));
    expect(asLookup).toMatchObject({ code: "E_AUTH", mayHaveActed: false });
  });

  it("404 is gone", () => {
    expect(isGone(new ApiNotFoundError("n", { method: "GET", path: "/v1/voices?id=x", status: 404 }))).toBe(true);
    expect(isGone(new ApiError("n", { code: "E_SERVER", method: "GET", path: "/v1/voices?id=x", status: 500 }))).toBe(
      false,
    );
  });
});

describe("a refusal of the provider's own, thrown inside an operation", () => {
  it("keeps its code, and says which operation refused", () => {
    const refused = explain(ctx("read"), new Refusal("E_GONE", "the object is gone; nothing was sent"));
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({
      code: "E_GONE",
      message: "voiceagent:Agent read failed: the object is gone; nothing was sent",
    });
  });
});
