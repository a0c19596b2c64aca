// check: every input validated at preview, naming the property, never repeating a value; settings
// checked before any request; unknowns passed through; cross-field rules skip unknowns.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { UNKNOWN } from "../../provider/resources/kit/unknown.js";

const id = () => randomUUID();
const dup = randomUUID();
const settings = { baseUrl: "http://127.0.0.1:9", token: "t0ken-value" };
const check = (kind: string, news: Record<string, unknown>, s: object | undefined = settings) =>
  runtimeFor(kind).check(s, {}, news);
// These checks are of inputs and settings: with the API generation set, no check asks the service
// which one it speaks (that read is test/kit/preview-generation.test.ts's).
beforeEach(() => vi.stubEnv("VOICEAGENT_API", "2023"));
afterEach(() => vi.unstubAllEnvs());
const failuresOf = async (kind: string, news: Record<string, unknown>) => (await check(kind, news)).failures ?? [];

describe("check names the property for each invalid input", () => {
  it.each([
    ["Agent", { prompt: "p", voice: "not-a-uuid" }, "voice", /voice must be a UUID/],
    ["Agent", { prompt: "", voice: id() }, "prompt", /prompt must not be empty/],
    ["Agent", { voice: id() }, "prompt", /prompt is required/],
    ["Agent", { prompt: "p", voice: id(), actions: [id(), "x"] }, "actions", /actions\[1\] must be a UUID/],
    ["Agent", { prompt: "p", voice: id(), promt: "typo" }, "promt", /unknown property "promt"/],
    ["Voice", { voiceName: "a", pitch: 1.5, rate: 1 }, "pitch", /pitch must be an integer/],
    ["Voice", { voiceName: "a", pitch: 1, rate: 1, type: "voice_robot" }, "type", /type .*voice_base/],
    ["PhoneNumber", { number: "555-0100", inboundAgent: id() }, "number", /number must be an E\.164 phone number/],
    ["PhoneNumber", { number: "+15550100", inboundAgent: "agent" }, "inboundAgent", /inboundAgent must be a UUID/],
    [
      "PhoneNumber",
      { number: "+15550100", inboundAgent: id(), cancelOnDelete: true },
      "cancelOnDelete",
      /removed in 0\.2\.0.*PurchasedNumber/,
    ],
    ["PurchasedNumber", { areaCode: "41" }, "areaCode", /3-digit area code/],
    ["PurchasedNumber", { areaCode: "415", number: "+12125550100" }, "areaCode", /does not match/],
    [
      "Call",
      { fromNumber: "+15550010001", toNumber: "+15559990000", agent: id(), allowedDestinations: ["+1555765*"] },
      "toNumber",
      /not in allowedDestinations/,
    ],
    [
      "Call",
      { fromNumber: "+15550010001", toNumber: "+15557650000", agent: id(), allowedDestinations: ["1555"] },
      "allowedDestinations",
      /prefix ending in \*/,
    ],
    ["Webhook", { url: "ftp://x", subscriptions: ["event_message"] }, "url", /http\(s\) URL/],
    ["Webhook", { url: "https://x.example", method: "PUT", subscriptions: ["event_message"] }, "method", /method/],
    ["Webhook", { url: "https://x.example", subscriptions: [] }, "subscriptions", /at least one event/],
    ["Action", { type: "action_dance" }, "type", /type/],
    ["Action", { config: { phoneNumber: "12" } }, "config", /config\.phoneNumber must be an E\.164/],
    // Sizes and ranges (provider/schemas/limits.ts): named with the field and the limit at preview.
    ["Agent", { prompt: "x".repeat(100_001), voice: id() }, "prompt", /prompt must be at most 100000 characters/],
    [
      "Agent",
      { prompt: "p", voice: id(), initialMessage: "x".repeat(10_001) },
      "initialMessage",
      /initialMessage must be at most 10000 characters/,
    ],
    ["Agent", { prompt: "p", voice: id(), actions: [dup, dup] }, "actions", /actions must not name the same id twice/],
    ["Voice", { voiceName: "a", pitch: 1e12, rate: 1 }, "pitch", /pitch must be between -100 and 100/],
    ["Voice", { voiceName: "a", pitch: 0, rate: -5 }, "rate", /rate must be between 0 and 100/],
    [
      "Voice",
      { voiceName: "v".repeat(201), pitch: 0, rate: 1 },
      "voiceName",
      /voiceName must be at most 200 characters/,
    ],
    // A password in the URL would be stored in plain text in the state; a space would be sent unencoded.
    [
      "Webhook",
      { url: "https://user:pass@hooks.example.com/x", subscriptions: ["event_message"] },
      "url",
      /url must not hold credentials/,
    ],
    [
      "Webhook",
      { url: "https://hooks.example.com/a path", subscriptions: ["event_message"] },
      "url",
      /url must be a valid URL: encode spaces/,
    ],
    [
      "Webhook",
      { url: `https://hooks.example.com/${"p".repeat(2_048)}`, subscriptions: ["event_message"] },
      "url",
      /url must be at most 2048 characters/,
    ],
  ] as const)("%s %j -> %s", async (kind, news, property, reason) => {
    const failures = await failuresOf(kind, news);
    // The field is named in the reason only: the engine prints the value of a `property` a failure
    // names, secret or not. Every reason says that nothing was sent.
    expect(failures).toContainEqual({ property: "", reason: expect.stringMatching(reason) });
    const named = failures.find((f) => reason.test(f.reason));
    expect(named?.reason).toContain(property);
    expect(named?.reason).toMatch(/nothing was sent to the service$/);
  });

  it("never repeats a value in a reason (it may be a secret)", async () => {
    const secretish = "+15559990123";
    const failures = await failuresOf("Call", {
      fromNumber: "+15550010001",
      toNumber: secretish,
      agent: id(),
      allowedDestinations: ["+1555765*"],
    });
    expect(failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(failures)).not.toContain(secretish);
    expect(JSON.stringify(failures)).not.toContain("+1555765");
  });

  it("the limits themselves pass: a value at each bound is accepted", async () => {
    expect(
      await failuresOf("Agent", {
        prompt: "x".repeat(100_000),
        voice: id(),
        initialMessage: "y".repeat(10_000),
        actions: [id(), id()],
      }),
    ).toEqual([]);
    expect(await failuresOf("Voice", { voiceName: "v".repeat(200), pitch: -100, rate: 100 })).toEqual([]);
    expect(await failuresOf("Voice", { voiceName: "v", pitch: 100, rate: 0 })).toEqual([]);
    expect(
      await failuresOf("Webhook", { url: "https://hooks.example.com/a%20path?x=1", subscriptions: ["event_message"] }),
    ).toEqual([]);
  });

  it("applies defaults and passes preview-time unknowns through", async () => {
    const voice = await check("Voice", { voiceName: "a", pitch: 0, rate: 1 });
    expect(voice.failures ?? []).toEqual([]);
    expect(voice.inputs).toMatchObject({ type: "voice_base" });
    const number = await check("PhoneNumber", { number: "+15550010001", inboundAgent: UNKNOWN });
    expect(number.failures ?? []).toEqual([]);
    expect(number.inputs).toMatchObject({ inboundAgent: UNKNOWN });
    const agent = await check("Agent", { prompt: "p", voice: id(), actions: [UNKNOWN, id()] });
    expect(agent.failures ?? []).toEqual([]);
  });

  it("a cross-field rule skips a value unknown at preview", async () => {
    const call = await check("Call", {
      fromNumber: "+15550010001",
      toNumber: UNKNOWN,
      agent: id(),
      allowedDestinations: ["+1555765*"],
    });
    expect(call.failures ?? []).toEqual([]);
    const allowed = await check("Call", {
      fromNumber: "+15550010001",
      toNumber: "+15559990000",
      agent: id(),
      allowedDestinations: UNKNOWN,
    });
    expect(allowed.failures ?? []).toEqual([]);
  });
});

describe("settings are checked at preview, naming the setting and the fix", () => {
  afterEach(() => vi.unstubAllEnvs());
  const agent = { prompt: "p", voice: id() };
  const reasons = async (s: object | undefined) =>
    ((await check("Agent", agent, s)).failures ?? []).map((f) => f.reason).join("\n");

  it.each([
    [
      "nothing set",
      {},
      new RegExp(
        /voiceagent:baseUrl is not set: run `pulumi config set voiceagent:baseUrl <url>`[\s\S]*/.source +
          /voiceagent:token is not set: run `pulumi config set --secret voiceagent:token <token>`/.source,
      ),
    ],
    ["empty values", { baseUrl: "", token: " " }, /voiceagent:baseUrl is not set[\s\S]*voiceagent:token is not set/],
    ["not a URL", { baseUrl: "api.example.com", token: "t" }, /voiceagent:baseUrl is not a URL/],
    ["another scheme", { baseUrl: "ftp://api.example.com", token: "t" }, /voiceagent:baseUrl must be an http\(s\) URL/],
    ["credentials in the URL", { baseUrl: "https://user:pw@api.example.com", token: "t" }, /must not hold credentials/],
    ["a query", { baseUrl: "https://api.example.com/?x=1", token: "t" }, /must not have a query/],
    // Requests would go under the path and answer 404 at `up`; refused at preview instead.
    [
      "a path",
      { baseUrl: "https://api.example.com/api", token: "t" },
      /voiceagent:baseUrl must be the service's root URL, without a path \(the provider adds/,
    ],
    [
      "the /v1 path",
      { baseUrl: "https://api.example.com/v1/", token: "t" },
      /voiceagent:baseUrl must be the service's root URL, without a path \(the provider adds/,
    ],
    [
      "a token with a newline",
      { baseUrl: "https://api.example.com", token: "abc\n" },
      /voiceagent:token contains whitespace/,
    ],
  ])("%s", async (_name, s, reason) => {
    vi.stubEnv("VOICEAGENT_BASE_URL", "");
    vi.stubEnv("VOICEAGENT_TOKEN", "");
    expect(await reasons(s)).toMatch(reason);
  });

  // The value may be a secret (a gateway's URL with a key in its path or host): a refusal names
  // the setting and what is wrong, never any part of the value.
  it.each([
    ["a key in the path", "https://gw.example.com/k/SECRET-path-4f1c"],
    ["another scheme", "SECRET-scheme-4f1c://gw.example.com"],
    ["a query", "https://gw.example.com/?key=SECRET-query-4f1c"],
    ["credentials", "https://u:SECRET-pw-4f1c@gw.example.com"],
  ])("a refused baseUrl is never printed: %s", async (_name, baseUrl) => {
    vi.stubEnv("VOICEAGENT_BASE_URL", "");
    const said = await reasons({ baseUrl, token: "t" });
    expect(said).toMatch(/voiceagent:baseUrl/);
    expect(said).not.toMatch(/SECRET|4f1c|gw\.example/);
  });

  it("falls back to the environment, and names the variables in the fix", async () => {
    vi.stubEnv("VOICEAGENT_BASE_URL", "http://127.0.0.1:9");
    vi.stubEnv("VOICEAGENT_TOKEN", "from-env");
    expect(await reasons({})).toBe("");
    vi.stubEnv("VOICEAGENT_TOKEN", "");
    expect(await reasons({})).toMatch(/\(or set VOICEAGENT_TOKEN\)/);
  });

  it("a token's value never appears in a settings message", async () => {
    vi.stubEnv("VOICEAGENT_BASE_URL", "");
    const token = "tok en-SECRET";
    expect(await reasons({ baseUrl: "nope", token })).not.toContain("SECRET");
  });

  it("voiceagent:operationTimeout must be a duration", async () => {
    const config = (v: string) => ({ get: (k: string) => (k === "voiceagent:operationTimeout" ? v : undefined) });
    expect(await reasons({ ...settings, config: config("soon") })).toMatch(
      /voiceagent:operationTimeout must be a duration such as 90s or 5m/,
    );
    expect(await reasons({ ...settings, config: config("0") })).toMatch(
      /voiceagent:operationTimeout must be a duration/,
    );
    expect(await reasons({ ...settings, config: config("90s") })).toBe("");
    expect(await reasons({ ...settings, config: config("5m") })).toBe("");
  });

  it("voiceagent:extensions must be auto, all or none", async () => {
    const config = { get: (k: string) => (k === "voiceagent:extensions" ? "some" : undefined) };
    expect(await reasons({ ...settings, config })).toMatch(/voiceagent:extensions must be "auto", "all" or "none"/);
  });
});
