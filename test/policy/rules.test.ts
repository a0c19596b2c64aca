// The pack's rules called in-process, as @pulumi/policy's server calls them: each on both entries'
// type tokens and never on another package's, unknown values (a preview's) passed over, and no
// message holding a value that may be secret. The CLI route is policy-pack.test.ts.
import type {
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { unknownCheckingProxy } from "@pulumi/policy";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc.js";
import { dynamicToken, tokenOf } from "pulumi-voiceagent/identity";
import { PACK_NAME, policies } from "pulumi-voiceagent-policy/policies";
import { describe, expect, it } from "vitest";

const byName = (name: string) => {
  const p = policies.find((x) => x.name === name);
  if (!p) throw new Error(`no policy ${name} in the pack`);
  return p;
};
const resourcePolicy = (name: string): ResourceValidationPolicy => {
  const p = byName(name);
  if (!("validateResource" in p) || !p.validateResource || Array.isArray(p.validateResource))
    throw new Error(`${name} is not a resource policy`);
  return p;
};

/** Runs a resource policy on one resource; returns the messages it reported. */
function validate(
  policy: string,
  type: string,
  props: Record<string, unknown>,
  config: object = {},
  protect = false,
): string[] {
  const messages: string[] = [];
  const report: ReportViolation = (message) => messages.push(message);
  const validateResource = resourcePolicy(policy).validateResource;
  const args: ResourceValidationArgs = {
    type,
    props: unknownCheckingProxy(props),
    urn: `urn:pulumi:dev::p::${type}::r`,
    name: "r",
    opts: {
      protect,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T extends object>() => config as T,
    notApplicable: (reason) => {
      throw new Error(`not applicable: ${reason}`);
    },
  };
  if (typeof validateResource === "function") validateResource(args, report);
  return messages;
}

const ENTRIES = [
  ["dynamic", dynamicToken],
  ["native", tokenOf],
] as const;

describe.each(ENTRIES)("on the %s entry's tokens", (_entry, token) => {
  it("each resource rule reports its kind's violation, naming the resource, the field and the rule", () => {
    const cases: [string, string, Record<string, unknown>, object, string][] = [
      ["voiceagent-protected-purchased-numbers", "PurchasedNumber", { areaCode: "415" }, {}, "protect"],
      [
        "voiceagent-call-destinations",
        "Call",
        { toNumber: "+33612345678" },
        { allowedNumbers: ["+1555*"] },
        "toNumber",
      ],
      ["voiceagent-agent-webhook", "Agent", { prompt: "p" }, {}, "webhook"],
      ["voiceagent-webhook-https", "Webhook", { url: "http://a.example.com/x" }, {}, "url"],
      [
        "voiceagent-webhook-hosts",
        "Webhook",
        { url: "https://b.example.net/x" },
        { allowedHosts: ["*.example.com"] },
        "url",
      ],
      [
        "voiceagent-external-action-url",
        "Action",
        { type: "action_external", config: { url: "http://api.example.com/lookup" } },
        {},
        "config.url does not use https",
      ],
      [
        "voiceagent-external-action-url",
        "Action",
        { type: "action_external", config: { url: "https://api.example.net/lookup" } },
        { allowedHosts: ["*.example.com"] },
        "config.url's host",
      ],
      ["voiceagent-agent-text-size", "Agent", { prompt: "x".repeat(9000) }, {}, "prompt"],
      ["voiceagent-voice-types", "Voice", { type: "voice_rime" }, { allowedTypes: ["voice_azure"] }, "type"],
      ["voiceagent-agent-languages", "Agent", { language: "ja" }, { allowedLanguages: ["en", "es"] }, "language"],
      [
        "voiceagent-agent-llm-models",
        "Agent",
        { openaiModelNameOverride: "gpt-4-32k" },
        { allowedModels: ["gpt-4o-mini"] },
        "openaiModelNameOverride",
      ],
      ["voiceagent-agent-llm-temperature", "Agent", { llmTemperature: 1.5 }, { maxTemperature: 1 }, "llmTemperature"],
      [
        "voiceagent-account-connection-types",
        "AccountConnection",
        { type: "account_connection_twilio" },
        { allowedTypes: ["account_connection_openai"] },
        "type",
      ],
    ];
    for (const [policy, kind, props, config, field] of cases) {
      const messages = validate(policy, token(kind), props, config);
      expect(messages, policy).toHaveLength(1);
      for (const part of [`${kind} 'r'`, field, policy]) expect(messages[0], policy).toContain(part);
      // Another package's resource with the same properties is not the pack's business.
      expect(validate(policy, `other:index:${kind}`, props, config), policy).toEqual([]);
    }
  });
});

describe("values", () => {
  it("an unknown value (a preview's) is set: no violation, and no 'cannot run during preview' warning", () => {
    expect(validate("voiceagent-agent-webhook", tokenOf("Agent"), { webhook: unknownValue })).toEqual([]);
    expect(validate("voiceagent-agent-webhook", tokenOf("Agent"), {})).toHaveLength(1);
    expect(
      validate("voiceagent-call-destinations", tokenOf("Call"), { toNumber: unknownValue }, { allowedNumbers: [] }),
    ).toEqual([]);
  });

  it("the external action rule looks only at external actions' known URLs, and never repeats the URL", () => {
    const rule = "voiceagent-external-action-url";
    const url = "http://api.example.com/lookup?key=s3cr3t";
    expect(validate(rule, tokenOf("Action"), { type: "action_transfer_call", config: { url } })).toEqual([]);
    expect(validate(rule, tokenOf("Action"), { type: "action_external", config: { url: unknownValue } })).toEqual([]);
    expect(validate(rule, tokenOf("Action"), { type: "action_external", config: unknownValue })).toEqual([]);
    const [plain] = validate(rule, tokenOf("Action"), { type: "action_external", config: { url } });
    expect(plain).toContain("https");
    expect(plain).not.toContain("s3cr3t");
    expect(
      validate(
        rule,
        tokenOf("Action"),
        { type: "action_external", config: { url: "https://hooks.example.com/x" } },
        {
          allowedHosts: ["*.example.com"],
        },
      ),
    ).toEqual([]);
  });

  it("a size rule gives the length, never the text; a destination rule never the number", () => {
    const prompt = `secret-${"y".repeat(120)}`;
    const [size] = validate("voiceagent-agent-text-size", tokenOf("Agent"), { prompt }, { maxPromptLength: 100 });
    expect(size).toContain(`${prompt.length} characters`);
    expect(size).not.toContain("secret-");
    const [call] = validate(
      "voiceagent-call-destinations",
      tokenOf("Call"),
      { toNumber: "+33699887766" },
      { allowedNumbers: ["+1555*", "+442071234567"] },
    );
    expect(call).toContain("+1555*, +442071234567");
    expect(call).not.toContain("99887766");
  });

  it("an allowlist not configured restricts nothing; configured empty, it allows nothing", () => {
    expect(validate("voiceagent-voice-types", tokenOf("Voice"), { type: "voice_rime" })).toEqual([]);
    expect(
      validate("voiceagent-voice-types", tokenOf("Voice"), { type: "voice_rime" }, { allowedTypes: [] }),
    ).toHaveLength(1);
    expect(
      validate("voiceagent-webhook-hosts", tokenOf("Webhook"), { url: "https://x.test/" }, { allowedHosts: [] }),
    ).toHaveLength(1);
  });

  it("a Voice without a type is the provider's default type, voice_base", () => {
    const allowedTypes = ["voice_base"];
    expect(validate("voiceagent-voice-types", tokenOf("Voice"), {}, { allowedTypes })).toEqual([]);
    expect(validate("voiceagent-voice-types", tokenOf("Voice"), {}, { allowedTypes: ["voice_azure"] })[0]).toContain(
      "voice_base",
    );
  });

  it("protect on a PurchasedNumber passes", () => {
    expect(validate("voiceagent-protected-purchased-numbers", tokenOf("PurchasedNumber"), {}, {}, true)).toEqual([]);
  });

  it("host entries: a name, or *.domain for the hosts under it (not the domain, not a look-alike)", () => {
    const allowed = (url: string, allowedHosts: string[]) =>
      validate("voiceagent-webhook-hosts", tokenOf("Webhook"), { url }, { allowedHosts }).length === 0;
    expect(allowed("https://hooks.example.com/in", ["*.example.com"])).toBe(true);
    expect(allowed("https://HOOKS.Example.com./in", ["*.example.com"])).toBe(true);
    expect(allowed("https://example.com/in", ["*.example.com"])).toBe(false);
    expect(allowed("https://evilexample.com/in", ["*.example.com"])).toBe(false);
    expect(allowed("https://example.com.evil.net/in", ["*.example.com", "example.com"])).toBe(false);
    expect(allowed("https://example.com/in", ["example.com"])).toBe(true);
    expect(allowed("https://a.example.com/in", ["example.com"])).toBe(false);
  });
});

describe("issue 35's fields", () => {
  const agent = tokenOf("Agent");

  it("an Agent without a language speaks en: allowed when en is, refused naming en when not", () => {
    expect(validate("voiceagent-agent-languages", agent, {}, { allowedLanguages: ["en"] })).toEqual([]);
    const [refused] = validate("voiceagent-agent-languages", agent, {}, { allowedLanguages: ["de", "fr"] });
    expect(refused).toContain("language en is not one of allowedLanguages (de, fr)");
    expect(validate("voiceagent-agent-languages", agent, { language: "de" }, { allowedLanguages: ["de"] })).toEqual([]);
    expect(validate("voiceagent-agent-languages", agent, { language: "ko" })).toEqual([]);
  });

  it("models: the main model and the fallback's each against allowedModels, the fallback's provider on its own list", () => {
    const config = { allowedModels: ["gpt-4o", "gpt-4o-mini"], allowedFallbackProviders: ["azure"] };
    const run = (props: Record<string, unknown>) => validate("voiceagent-agent-llm-models", agent, props, config);
    expect(
      run({ openaiModelNameOverride: "gpt-4o", llmFallback: { provider: "azure", modelName: "gpt-4o-mini" } }),
    ).toEqual([]);
    expect(run({})).toEqual([]);
    const both = run({
      openaiModelNameOverride: "o1-preview",
      llmFallback: { provider: "openai", modelName: "davinci" },
    });
    expect(both).toHaveLength(3);
    expect(both[0]).toContain("openaiModelNameOverride o1-preview is not one of allowedModels (gpt-4o, gpt-4o-mini)");
    expect(both[1]).toContain("llmFallback.modelName davinci is not one of allowedModels");
    expect(both[2]).toContain("llmFallback.provider openai is not one of allowedFallbackProviders (azure)");
    // Not configured, nothing is restricted.
    expect(validate("voiceagent-agent-llm-models", agent, { openaiModelNameOverride: "anything" })).toEqual([]);
  });

  it("temperature: within the bounds passes, each bound reported by name, unset passes", () => {
    const config = { minTemperature: 0.2, maxTemperature: 0.8 };
    const run = (llmTemperature: unknown) =>
      validate("voiceagent-agent-llm-temperature", agent, { llmTemperature }, config);
    expect(run(0.2)).toEqual([]);
    expect(run(0.8)).toEqual([]);
    expect(run(0.1)[0]).toContain("llmTemperature 0.1 is below minTemperature 0.2");
    expect(run(0.9)[0]).toContain("llmTemperature 0.9 is above maxTemperature 0.8");
    expect(validate("voiceagent-agent-llm-temperature", agent, {}, config)).toEqual([]);
    expect(validate("voiceagent-agent-llm-temperature", agent, { llmTemperature: 2 })).toEqual([]);
  });

  it("an account connection's type against allowedTypes; configured empty, none is allowed", () => {
    const connection = tokenOf("AccountConnection");
    const openai = { type: "account_connection_openai", openaiApiKey: "sk-secret-value" };
    expect(
      validate("voiceagent-account-connection-types", connection, openai, {
        allowedTypes: ["account_connection_openai"],
      }),
    ).toEqual([]);
    const [refused] = validate("voiceagent-account-connection-types", connection, openai, { allowedTypes: [] });
    expect(refused).toContain("type account_connection_openai is not one of allowedTypes (none)");
    expect(refused).not.toContain("sk-secret-value");
  });

  it("values unknown at preview never fail these mandatory rules", () => {
    const strict = {
      languages: { allowedLanguages: [] },
      models: { allowedModels: [], allowedFallbackProviders: [] },
      temperature: { minTemperature: 1, maxTemperature: 1 },
    };
    expect(validate("voiceagent-agent-languages", agent, { language: unknownValue }, strict.languages)).toEqual([]);
    expect(
      validate(
        "voiceagent-agent-llm-models",
        agent,
        { openaiModelNameOverride: unknownValue, llmFallback: unknownValue },
        strict.models,
      ),
    ).toEqual([]);
    // A fallback whose fields are computed: each unknown field passes, a known one is still checked.
    const partly = validate(
      "voiceagent-agent-llm-models",
      agent,
      { llmFallback: { provider: "openai", modelName: unknownValue } },
      strict.models,
    );
    expect(partly).toHaveLength(1);
    expect(partly[0]).toContain("llmFallback.provider openai");
    expect(
      validate("voiceagent-agent-llm-temperature", agent, { llmTemperature: unknownValue }, strict.temperature),
    ).toEqual([]);
    expect(
      validate(
        "voiceagent-account-connection-types",
        tokenOf("AccountConnection"),
        { type: unknownValue },
        { allowedTypes: [] },
      ),
    ).toEqual([]);
  });
});

describe("the pack's config", () => {
  it("a setting a rule does not take (a misspelt one) fails the run naming it and the rule's settings", () => {
    const typo = () =>
      validate(
        "voiceagent-call-destinations",
        tokenOf("Call"),
        { toNumber: "+15550100" },
        { allowedNumber: ["+1555*"] },
      );
    expect(typo).toThrow(/voiceagent-call-destinations has "allowedNumber".*its settings: allowedNumbers/);
    expect(() => validate("voiceagent-agent-webhook", tokenOf("Agent"), {}, { hooks: 1 })).toThrow(
      /"hooks".*it takes no settings/,
    );
  });
});

describe("the stack rule", () => {
  const cap = byName("voiceagent-purchased-number-cap");
  const run = (types: string[], config: object = {}) => {
    const messages: string[] = [];
    if (!("validateStack" in cap)) throw new Error("not a stack policy");
    const stack: StackValidationPolicy = cap;
    const resources = types.map(
      (type, i): PolicyResource => ({
        type,
        props: {},
        urn: `urn:pulumi:dev::p::${type}::n${i}`,
        name: `n${i}`,
        opts: {
          protect: true,
          ignoreChanges: [],
          aliases: [],
          customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
          additionalSecretOutputs: [],
        },
        dependencies: [],
        propertyDependencies: {},
        isType: () => false,
        asType: () => undefined,
      }),
    );
    stack.validateStack(
      {
        resources,
        stackTags: new Map(),
        getConfig: <T extends object>() => config as T,
        notApplicable: () => {
          throw new Error("not applicable");
        },
      },
      (m) => messages.push(m),
    );
    return messages;
  };

  it("counts the PurchasedNumbers of both entries, nothing else, against maxPurchasedNumbers (5 by default)", () => {
    const numbers = [dynamicToken("PurchasedNumber"), tokenOf("PurchasedNumber"), tokenOf("PurchasedNumber")];
    const others = [tokenOf("PhoneNumber"), tokenOf("Agent"), "other:index:PurchasedNumber"];
    expect(run([...numbers, ...others], { maxPurchasedNumbers: 3 })).toEqual([]);
    const [over] = run([...numbers, ...others], { maxPurchasedNumbers: 2 });
    expect(over).toContain("3 PurchasedNumbers ('n0', 'n1', 'n2')");
    expect(over).toContain("maxPurchasedNumbers 2");
    expect(run([...numbers, ...numbers])).toHaveLength(1);
    expect(run(numbers.slice(0, 2).concat(numbers))).toEqual([]);
  });
});

it("the pack is named voiceagent and every policy name is unique and prefixed with it", () => {
  expect(PACK_NAME).toBe("voiceagent");
  const names = policies.map((p) => p.name);
  expect(new Set(names).size).toBe(names.length);
  for (const n of names) expect(n.startsWith(`${PACK_NAME}-`)).toBe(true);
});
