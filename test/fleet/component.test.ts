// What the Fleet component of each entry registers, read off the registration requests (a mock
// monitor that records them): one resource per entry of the entry's own types, named
// `<fleet>-<key>` under the component, references resolved to the referenced resource's id, `was`
// as an alias, bought numbers protected, every value secret when the fleet's config value was, and
// nothing at all for a fleet that fails its check.
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import * as dynamic from "pulumi-voiceagent";
import * as native from "pulumi-voiceagent/native";
import type { FleetSpec } from "pulumi-voiceagent";
// The plugin's Fleet (its Construct runs it); the native entry's Fleet is the remote component.
import { ServedFleet } from "../../provider/dist/fleet/native.js";

/** The fields of a RegisterResourceRequest this file reads. */
interface Request {
  getType(): string;
  getName(): string;
  getParent(): string;
  getProtect(): boolean;
  getRemote(): boolean;
  getAliasesList(): { getSpec(): { getName(): string } | undefined }[];
  getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
}
type Register = (req: Request, callback: (err: unknown, res: unknown) => void) => Promise<void>;

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const EXISTING_VOICE = "00000000-0000-4000-8000-000000000001";
const TWILIO_CONNECTION = "00000000-0000-4000-8000-00000000c0de";
const requests: Request[] = [];
const byName = (type: string, name: string) => {
  const r = requests.find((q) => q.getName() === name && q.getType() === type);
  if (!r) throw new Error(`${type} ${name} was not registered`);
  return r;
};
const inputs = (r: Request) => r.getObject()?.toJavaScript() ?? {};
const isSecret = (v: unknown) => typeof v === "object" && v !== null && SECRET_SIG in v;
const settled = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

/** An agent's current-API (2024) fields, each as the stack file writes it and the Agent takes it. */
const CURRENT = {
  promptId: "00000000-0000-4000-8000-0000000000a1",
  name: "Recepción",
  language: "es",
  interruptSensitivity: "high",
  endpointingSensitivity: "relaxed",
  ivrNavigationMode: "off",
  conversationSpeed: 1.2,
  initialMessageDelay: 0.5,
  idleTimeSeconds: 15,
  askIfHumanPresentOnIdle: true,
  noiseSuppression: false,
  runDoNotCallDetection: true,
  contextEndpoint: "https://ctx.example.com/es",
  llmTemperature: 0.4,
  openaiModelNameOverride: "gpt-4o",
  llmFallback: { provider: "azure", modelName: "gpt-4o-mini" },
  deepgramKeywords: { Ibuprofeno: 2 },
  vectorDatabase: "00000000-0000-4000-8000-0000000000b1",
  openaiAccountConnection: "00000000-0000-4000-8000-0000000000c1",
} as const;

const fleet: FleetSpec = {
  voices: { warm: { voiceName: "alloy", pitch: 0, rate: 1 } },
  agents: {
    support: { prompt: "You answer support calls.", voice: "warm", was: ["helpdesk"] },
    sales: { prompt: "You sell.", voice: EXISTING_VOICE },
    spanish: {
      ...CURRENT,
      llmFallback: { ...CURRENT.llmFallback },
      deepgramKeywords: { ...CURRENT.deepgramKeywords },
      voice: "warm",
    },
  },
  lines: {
    main: { number: "+15550010001", agent: "support" },
    bought: { buy: { areaCode: "212" }, agent: "sales" },
    spare: { buy: {}, agent: "sales", protect: false },
    // Outbound only: a linked number with no agent answering it.
    own: { number: "+15550020002", link: { connection: TWILIO_CONNECTION, outboundOnly: true } },
  },
};

/** The current API's own objects (issue 35), an agent and a linked line naming them by key. */
const CURRENT_FLEET: FleetSpec = {
  // The current API's voice types, each with its own fields (no pitch or rate), a vendor key among them.
  voices: {
    river: { type: "voice_rime", speaker: "river", speedAlpha: 1.1 },
    rachel: { type: "voice_eleven_labs", vendorVoiceId: "rachel", apiKey: "el-key", stability: 0.4 },
  },
  prompts: { booking: { content: "You book visits.", collectFields: [{ name: "email", label: "Email" }] } },
  vectorDatabases: { faq: { index: "clinic-faq", apiKey: "pc-key", apiEnvironment: "us-east-1-aws" } },
  accountConnections: {
    openai: { type: "account_connection_openai", openaiApiKey: "sk-key" },
    twilio: { type: "account_connection_twilio", twilioAccountSid: "AC1", twilioAuthToken: "tw-token" },
  },
  agents: {
    desk: { voice: "river", promptId: "booking", vectorDatabase: "faq", openaiAccountConnection: "openai" },
  },
  lines: { own: { agent: "desk", number: "+15550030003", link: { connection: "twilio" } } },
};
let currentIds: dynamic.FleetIds;
let nativeIds: dynamic.FleetIds;
let refused: unknown;

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => ({
        id: `${a.name}-id`,
        state: {
          ...a.inputs,
          ...(a.type.endsWith("PurchasedNumber") ? { number: `+1212555${a.name.length}000` } : {}),
        },
      }),
      call: () => ({}),
    },
    "va-fleet",
    "staging",
  );
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource: Register };
  const answer = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, callback) => {
    requests.push(req);
    return answer(req, callback);
  };
  const n = new ServedFleet("nf", { fleet, secret: true });
  new native.Fleet("remote", { fleet, secret: true });
  const d = new dynamic.Fleet("df", { fleet });
  try {
    new ServedFleet("bad", { fleet: { agents: { a: { prompt: "p", voice: "nobody" } } } });
  } catch (err) {
    refused = err;
  }
  const current = new dynamic.Fleet("cf", { fleet: CURRENT_FLEET });
  nativeIds = await settled(n.ids);
  await settled(d.ids);
  currentIds = await settled(current.ids);
}, 60_000);

describe("Fleet", () => {
  it("declares prompts, vector databases and account connections, references to them by key resolved to their ids, credentials secret", () => {
    const dyn = (kind: string, name: string) => inputs(byName(`pulumi-nodejs:dynamic/voiceagent:${kind}`, name));
    expect(dyn("Voice", "cf-river")).toMatchObject({ type: "voice_rime", speaker: "river", speedAlpha: 1.1 });
    expect(dyn("Voice", "cf-rachel")).toMatchObject({
      type: "voice_eleven_labs",
      vendorVoiceId: "rachel",
      stability: 0.4,
    });
    expect(isSecret(dyn("Voice", "cf-rachel").apiKey)).toBe(true);
    expect(dyn("Prompt", "cf-booking")).toMatchObject({ content: "You book visits." });
    expect(dyn("VectorDatabase", "cf-faq")).toMatchObject({ index: "clinic-faq", apiEnvironment: "us-east-1-aws" });
    expect(isSecret(dyn("VectorDatabase", "cf-faq").apiKey)).toBe(true);
    expect(isSecret(dyn("AccountConnection", "cf-openai").openaiApiKey)).toBe(true);
    expect(isSecret(dyn("AccountConnection", "cf-twilio").twilioAuthToken)).toBe(true);
    expect(dyn("Agent", "cf-desk")).toMatchObject({
      voice: "cf-river-id",
      promptId: "cf-booking-id",
      vectorDatabase: "cf-faq-id",
      openaiAccountConnection: "cf-openai-id",
    });
    expect(dyn("LinkedNumber", "cf-own")).toMatchObject({
      telephonyAccountConnection: "cf-twilio-id",
      inboundAgent: "cf-desk-id",
    });
    expect(currentIds).toMatchObject({
      prompts: { booking: "cf-booking-id" },
      vectorDatabases: { faq: "cf-faq-id" },
      accountConnections: { openai: "cf-openai-id", twilio: "cf-twilio-id" },
    });
  });

  it("the native entry's Fleet is the plugin's component: one remote registration, its document secret, no child of its own", () => {
    const remote = byName("voiceagent:index:Fleet", "remote");
    expect(remote.getRemote()).toBe(true);
    expect(isSecret(inputs(remote).fleet)).toBe(true);
    expect(requests.filter((r) => r.getName().startsWith("remote-"))).toEqual([]);
  });

  it("registers each entry as its entry's type, named <fleet>-<key>, under the component", () => {
    const component = byName("voiceagent:index:Fleet", "nf");
    expect(component).toBeDefined();
    for (const [type, name] of [
      ["Voice", "nf-warm"],
      ["Agent", "nf-support"],
      ["PhoneNumber", "nf-main"],
      ["PurchasedNumber", "nf-bought"],
      ["PhoneNumber", "nf-bought"],
    ] as const) {
      expect(byName(`voiceagent:index:${type}`, name).getParent()).toMatch(/voiceagent:index:Fleet::nf$/);
    }
    expect(byName("pulumi-nodejs:dynamic/voiceagent:Agent", "df-support").getParent()).toMatch(
      /voiceagent:fleet:Fleet::df$/,
    );
    expect(
      requests
        .filter((r) => r.getName().startsWith("nf-"))
        .map((r) => r.getName())
        .sort(),
    ).toEqual([
      "nf-bought",
      "nf-bought",
      "nf-main",
      "nf-own",
      "nf-sales",
      "nf-spanish",
      "nf-spare",
      "nf-spare",
      "nf-support",
      "nf-warm",
    ]);
  });

  it("registers a linked line as a LinkedNumber holding its connection (and no agent when outbound only), with no PhoneNumber binding", () => {
    expect(byName("voiceagent:index:LinkedNumber", "nf-own").getParent()).toMatch(/voiceagent:index:Fleet::nf$/);
    const own = inputs(byName("pulumi-nodejs:dynamic/voiceagent:LinkedNumber", "df-own"));
    expect(own).toMatchObject({
      number: "+15550020002",
      telephonyAccountConnection: TWILIO_CONNECTION,
      outboundOnly: true,
    });
    expect(own.inboundAgent).toBeUndefined();
    expect(requests.filter((r) => r.getName() === "df-own").map((r) => r.getType())).toEqual([
      "pulumi-nodejs:dynamic/voiceagent:LinkedNumber",
    ]);
  });

  it("resolves a key to that resource's id, passes a UUID through, and maps keys to ids", () => {
    expect(inputs(byName("pulumi-nodejs:dynamic/voiceagent:Agent", "df-support")).voice).toBe("df-warm-id");
    expect(inputs(byName("pulumi-nodejs:dynamic/voiceagent:Agent", "df-sales")).voice).toBe(EXISTING_VOICE);
    expect(inputs(byName("pulumi-nodejs:dynamic/voiceagent:PhoneNumber", "df-main")).inboundAgent).toBe(
      "df-support-id",
    );
    expect(nativeIds.agents).toEqual({ support: "nf-support-id", sales: "nf-sales-id", spanish: "nf-spanish-id" });
    expect(nativeIds.lines).toEqual({
      main: "nf-main-id",
      bought: "nf-bought-id",
      spare: "nf-spare-id",
      own: "nf-own-id",
    });
    expect(Object.keys(nativeIds.numbers)).toEqual(["bought", "spare"]);
  });

  it("keeps a former key as an alias, and protects a bought number unless the line says protect: false", () => {
    expect(
      byName("voiceagent:index:Agent", "nf-support")
        .getAliasesList()
        .map((a) => a.getSpec()?.getName()),
    ).toContain("nf-helpdesk");
    expect(byName("voiceagent:index:PurchasedNumber", "nf-bought").getProtect()).toBe(true);
    expect(byName("voiceagent:index:PurchasedNumber", "nf-spare").getProtect()).toBe(false);
    expect(byName("voiceagent:index:PhoneNumber", "nf-main").getProtect()).toBe(false);
  });

  it("sends every value as a secret when the fleet is secret, and none otherwise", () => {
    const secretAgent = inputs(byName("voiceagent:index:Agent", "nf-support"));
    expect(isSecret(secretAgent.prompt)).toBe(true);
    expect(isSecret(inputs(byName("voiceagent:index:PhoneNumber", "nf-main")).number)).toBe(true);
    expect(isSecret(inputs(byName("voiceagent:index:Voice", "nf-warm")).pitch)).toBe(true);
    const plainAgent = inputs(byName("pulumi-nodejs:dynamic/voiceagent:Agent", "df-support"));
    expect(plainAgent.prompt).toBe("You answer support calls.");
  });

  it("passes an agent's current-API fields to its Agent as they are, each secret when the fleet is", () => {
    expect(inputs(byName("pulumi-nodejs:dynamic/voiceagent:Agent", "df-spanish"))).toMatchObject(CURRENT);
    const secret = inputs(byName("voiceagent:index:Agent", "nf-spanish"));
    for (const key of Object.keys(CURRENT)) expect(isSecret(secret[key]), key).toBe(true);
  });

  it("registers nothing for a fleet that fails its check", () => {
    expect(refused).toBeInstanceOf(dynamic.FleetConfigError);
    expect(requests.filter((r) => r.getName() === "bad" || r.getName().startsWith("bad-"))).toEqual([]);
  });
});

describe("fleetFromConfig", () => {
  // Pulumi hands a program the config as JSON, and the secret keys as a list of whole keys.
  const read = (config: Record<string, string>, secretKeys: string[]) => {
    pulumi.runtime.setAllConfig(config, secretKeys);
    try {
      return dynamic.fleetFromConfig();
    } catch (err) {
      return err;
    }
  };
  const value = JSON.stringify({ agents: { support: { prompt: "p", voice: EXISTING_VOICE } } });

  it("reads <project>:fleet, and marks the fleet secret exactly when Pulumi says that key holds a secret", () => {
    expect(read({ "va-fleet:fleet": value }, [])).toEqual({ fleet: JSON.parse(value), secret: false, source: "fleet" });
    expect(read({ "va-fleet:fleet": value, "va-fleet:other": "x" }, ["va-fleet:other"])).toMatchObject({
      secret: false,
    });
    expect(read({ "va-fleet:fleet": value }, ["va-fleet:fleet"])).toMatchObject({ secret: true });
  });

  it("names the stack's file when the fleet is missing or wrong", () => {
    const missing = read({ "voiceagent:fleet": value }, []);
    expect(missing).toBeInstanceOf(dynamic.FleetConfigError);
    expect(String(missing)).toMatch(
      /in Pulumi\.staging\.yaml[\s\S]*\n {2}fleet: required: this stack's config has no `va-fleet:fleet`/,
    );
    const wrong = read({ "va-fleet:fleet": JSON.stringify({ agents: { a: { prompt: "p", voice: "nobody" } } }) }, []);
    expect(String(wrong)).toMatch(/in Pulumi\.staging\.yaml[\s\S]*fleet\.agents\.a\.voice: no voice named "nobody"/);
    // A fleet set as one (secret) string: refused without repeating it.
    const text = read({ "va-fleet:fleet": "s3cret-not-a-mapping" }, ["va-fleet:fleet"]);
    expect(text).toBeInstanceOf(dynamic.FleetConfigError);
    expect(String(text)).toMatch(/\n {2}fleet: must be a mapping/);
    expect(String(text)).not.toContain("s3cret");
  });
});
