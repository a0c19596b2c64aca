// What the native classes send to the engine, read off the registration requests themselves (a
// mock monitor that records them): the type token, the plugin version, the alias to the dynamic
// type, every output, the secret outputs, and an explicit provider with its token as a secret.
import { readFileSync } from "node:fs";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import * as dynamic from "pulumi-voiceagent";
import * as native from "pulumi-voiceagent/native";
import { REPO_ROOT } from "../helpers/consumer.js";

/** The fields of a RegisterResourceRequest this file reads. */
interface Request {
  getType(): string;
  getName(): string;
  getVersion(): string;
  getProvider(): string;
  getAliasesList(): { getSpec(): { getType(): string; getName(): string } | undefined }[];
  getAdditionalsecretoutputsList(): string[];
  getObject(): { toJavaScript(): Record<string, unknown> };
}

const requests: Request[] = [];
type Register = (req: Request, callback: (err: unknown, res: unknown) => void) => Promise<void>;

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/package.json"), "utf8")) as { version: string })
  .version;
const KINDS = ["Agent", "Voice", "Action", "Webhook", "PhoneNumber", "PurchasedNumber", "Call"] as const;
const VOICE = "00000000-0000-4000-8000-000000000001";
/** Arguments each kind accepts, the same for both entries. */
const ARGS = {
  Agent: { prompt: "p", voice: VOICE },
  Voice: { voiceName: "alloy", pitch: 0, rate: 1 },
  Action: { type: "action_end_conversation" as const },
  Webhook: { url: "https://hooks.example.com/x", subscriptions: ["event_message" as const] },
  PhoneNumber: { number: "+15550010001", inboundAgent: VOICE },
  PurchasedNumber: { areaCode: "415" },
  Call: { fromNumber: "+15550010001", toNumber: "+15557654321", agent: VOICE },
};

const byName = (name: string) => {
  const r = requests.find((q) => q.getName() === name);
  if (!r) throw new Error(`${name} was not registered`);
  return r;
};
const settled = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

let agent: native.Agent;
let staging: native.Provider;

beforeAll(async () => {
  await pulumi.runtime.setMocks({
    newResource: (a) => ({ id: `${a.name}-id`, state: { ...a.inputs, userId: "user-1" } }),
    call: () => ({}),
  });
  // The mock monitor, recording each request before it answers it.
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource: Register };
  const answer = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, callback) => {
    requests.push(req);
    return answer(req, callback);
  };
  staging = new native.Provider("staging", { baseUrl: "https://staging.example.com", token: "staging-token-value" });
  const all: pulumi.Resource[] = KINDS.flatMap((kind) => [
    new native[kind](`native-${kind}`, ARGS[kind] as never),
    new dynamic[kind](`dynamic-${kind}`, ARGS[kind] as never),
  ]);
  agent = new native.Agent("explicit", ARGS.Agent, { provider: staging, aliases: [{ name: "old-name" }] });
  await settled(pulumi.all([...[...all, agent, staging].map((r) => r.urn), agent.userId]));
}, 60_000);

describe("the native classes", () => {
  it.each(KINDS)(
    "%s registers voiceagent:index:<kind> at the package's version, aliased to its dynamic type",
    (kind) => {
      const r = byName(`native-${kind}`);
      expect(r.getType()).toBe(`voiceagent:index:${kind}`);
      expect(r.getVersion()).toBe(VERSION);
      const specs = r.getAliasesList().map((a) => a.getSpec());
      expect(specs.map((s) => [s?.getType(), s?.getName()])).toEqual([
        [`pulumi-nodejs:dynamic/voiceagent:${kind}`, ""],
      ]);
    },
  );

  it.each(KINDS)("%s registers every property the dynamic class registers (its outputs included)", (kind) => {
    // The dynamic class also hands its provider text and its logical name (`__logicalName`, for
    // naming an agent; the check removes it, so it is never recorded): neither is a property.
    const keys = (r: Request) =>
      Object.keys(r.getObject().toJavaScript())
        .filter((k) => k !== "__provider" && k !== "__logicalName")
        .sort();
    expect(keys(byName(`native-${kind}`))).toEqual(keys(byName(`dynamic-${kind}`)));
  });

  it("an output the program does not set resolves from what the provider returned", async () => {
    expect(await settled(agent.userId)).toBe("user-1");
  });

  it("a call's transcript and errorMessage are secret outputs", () => {
    expect(byName("native-Call").getAdditionalsecretoutputsList().sort()).toEqual(["errorMessage", "transcript"]);
  });

  it("the dynamic classes alias the native type, for the way back", () => {
    for (const kind of KINDS) {
      const specs = byName(`dynamic-${kind}`)
        .getAliasesList()
        .map((a) => a.getSpec()?.getType());
      expect(specs).toEqual([`voiceagent:index:${kind}`]);
    }
  });

  it("a program's own aliases and provider are kept beside the package's", async () => {
    const r = byName("explicit");
    expect(r.getAliasesList().map((a) => [a.getSpec()?.getType(), a.getSpec()?.getName()])).toEqual([
      ["pulumi-nodejs:dynamic/voiceagent:Agent", ""],
      ["", "old-name"],
    ]);
    expect(r.getProvider()).toBe(`${await settled(staging.urn)}::staging-id`);
  });
});

describe("an explicit Provider", () => {
  it("is pulumi:providers:voiceagent at the package's version, its token a secret and its URL plain", () => {
    const r = byName("staging");
    expect(r.getType()).toBe("pulumi:providers:voiceagent");
    expect(r.getVersion()).toBe(VERSION);
    const object = r.getObject().toJavaScript();
    expect(object.baseUrl).toBe("https://staging.example.com");
    expect(object.token).toEqual({ [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", value: "staging-token-value" });
  });
});
