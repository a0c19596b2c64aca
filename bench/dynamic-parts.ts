// What the dynamic entry costs per resource, part by part, in-process and the way @pulumi/pulumi
// does it (issue 32): the text pulumi.dynamic.Resource stores (serializeFunction), loaded as
// cmd/dynamic-provider loads it (require-from-string, handler(), configure once), each call's
// properties through a protobuf Struct and back as over gRPC. Set against the no-op dynamic floor
// and against the text 0.1.0–0.4.0 wrote (the newest upgrade fixture's, which calls runtimeFor).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as pulumi from "@pulumi/pulumi";
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config.js";
import { noop } from "./programs/floor-provider.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fromPulumi = createRequire(createRequire(import.meta.url).resolve("@pulumi/pulumi"));
const requireFromString: (code: string) => { handler(): pulumi.dynamic.ResourceProvider } =
  fromPulumi("require-from-string");
const {
  Struct,
}: { Struct: { fromJavaScript(o: object): { serializeBinary(): Uint8Array } } } & {
  Struct: { deserializeBinary(b: Uint8Array): { toJavaScript(): Record<string, unknown> } };
} = fromPulumi("google-protobuf/google/protobuf/struct_pb");
// The built shim (vitest or tsx would rewrite its import()).
const { providerShim }: { providerShim: (kind: string) => pulumi.dynamic.ResourceProvider } = createRequire(
  import.meta.url,
)(path.join(ROOT, "provider/dist/dynamic/shim.js"));

/** One provider's figures. */
export interface DynamicPart {
  provider: string;
  textChars: number;
  /**
   * CPU ms of its first check and diff in this process: the first of ours to run loads the runtime
   * (in a dynamic host, once per process; here the bench has loaded the client already).
   */
  firstCallsMs: number;
  /** CPU ms of a Struct round trip of an agent's inputs and its outputs, with the text in both. */
  wireMs: number;
  /** CPU ms of one check and one diff of an agent, with the host's Struct round trips. */
  checkDiffMs: number;
}

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const wire = (o: object) => Struct.deserializeBinary(Struct.fromJavaScript(o).serializeBinary()).toJavaScript();

/** `calls` checks and diffs of one agent per provider, after as many to warm up; no request is sent. */
export async function benchDynamicParts(calls: number): Promise<DynamicPart[]> {
  const fixtures = path.join(ROOT, "test/upgrade/fixtures");
  const newest = readdirSync(fixtures).sort().at(-1) ?? "";
  const state: { deployment: { resources: { type: string; id?: string; inputs?: Record<string, unknown> }[] } } =
    JSON.parse(readFileSync(path.join(fixtures, newest, "state.json"), "utf8"));
  const agent = state.deployment.resources.find((r) => r.type.endsWith(":Agent"));
  const oldText = agent?.inputs?.__provider;
  if (!agent?.inputs || typeof oldText !== "string") throw new Error(`${newest}'s state has no agent with a provider`);
  const { __provider: _, ...inputs } = agent.inputs;
  // Named as pulumi.dynamic.Resource names it: the serializer writes the captured variable's name.
  const provider = providerShim("Agent");
  const texts: [string, string][] = [
    ["no-op floor", (await pulumi.runtime.serializeFunction(() => noop, { allowSecrets: true })).text],
    [`text of ${newest} (runtimeFor)`, oldText],
    ["this text (dispatchFor)", (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text],
  ];
  // Unreachable on purpose: check and diff send nothing.
  const config = new Config({ "voiceagent:baseUrl": "http://127.0.0.1:9", "voiceagent:token": "bench" }, "bench");
  const parts: DynamicPart[] = [];
  for (const [name, text] of texts) {
    const loaded = requireFromString(text).handler();
    await loaded.configure?.({ config });
    const news = { ...inputs, __provider: text };
    const olds = { ...inputs, __provider: text };
    const pair = async () => {
      const checked = await loaded.check?.(wire({}), wire(news));
      wire(checked?.inputs ?? {});
      await loaded.diff?.(agent.id ?? "", wire(olds), wire(news));
    };
    let t = cpuMs();
    await pair();
    const firstCallsMs = cpuMs() - t;
    for (let i = 0; i < calls; i++) await pair();
    t = cpuMs();
    for (let i = 0; i < calls; i++) {
      wire(news);
      wire(olds);
    }
    const wireMs = (cpuMs() - t) / calls;
    t = cpuMs();
    for (let i = 0; i < calls; i++) await pair();
    parts.push({ provider: name, textChars: text.length, firstCallsMs, wireMs, checkDiffMs: (cpuMs() - t) / calls });
  }
  return parts;
}
