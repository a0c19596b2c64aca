// The serialized provider (dynamic/shim.ts) as the engine records it and the dynamic provider host runs
// it: serialized by @pulumi/pulumi's closure serializer (what pulumi.dynamic.Resource stores under
// `__provider`), then loaded the way cmd/dynamic-provider does (require-from-string, `handler()`,
// `configure` once, then the methods), against an emulator.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import { Config } from "@pulumi/pulumi/cmd/dynamic-provider/config.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import type { providerShim as ProviderShim } from "../../provider/dynamic/shim.js";

// The built module, as users get it (vite would rewrite its `import()` into one of its own).
const { providerShim }: { providerShim: typeof ProviderShim } = createRequire(import.meta.url)(
  "../../provider/dist/dynamic/shim.js",
);
const requireFromString: (code: string) => { handler(): pulumi.dynamic.ResourceProvider } = createRequire(
  createRequire(import.meta.url).resolve("@pulumi/pulumi"),
)("require-from-string");

const token = `shim-${randomUUID()}`;
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ tokens: [token] });
});
afterAll(async () => emu?.close());

/** The text a resource of `kind` records, as pulumi.dynamic.Resource serializes it. */
async function recorded(kind: string): Promise<string> {
  const provider = providerShim(kind);
  return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

describe("the serialized provider", () => {
  it("is under 1,000 characters for every kind (it is stored twice in each resource's state)", async () => {
    for (const kind of ["Agent", "PhoneNumber", "AccountConnection"]) {
      const text = await recorded(kind);
      expect(text.length, text).toBeLessThan(1_000);
    }
  });

  it("has its six methods as soon as the host calls configure, before the runtime is loaded, and they reach the kind's runtime", async () => {
    const provider = requireFromString(await recorded("Voice")).handler();
    const config = new Config({ "voiceagent:baseUrl": emu.url, "voiceagent:token": token }, "shim");
    // The host caches the provider before awaiting configure: a concurrent call may use it at once.
    const configured = provider.configure?.({ config });
    for (const m of ["check", "diff", "create", "read", "update", "delete"] as const)
      expect(typeof provider[m], m).toBe("function");
    await configured;
    const inputs = { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base", __provider: "text" };
    const checked = await provider.check?.({}, inputs);
    expect(checked?.failures ?? []).toEqual([]);
    const made = await provider.create({ ...checked?.inputs });
    expect((await provider.read?.(made.id, { ...made.outs, __provider: "text" }))?.id).toBe(made.id);
    await provider.delete?.(made.id, { ...made.outs, __provider: "text" });
  });
});
