// Every output the public classes type exists at run time (issue 16, defect 7: `agent.actions` was
// typed Output<string[]> and undefined when the program left it unset). The resources are
// registered in-process with Pulumi's mocks: no engine, no provider, no service. And a secret
// input (a voice's vendor key) is registered secret by both entries' classes, even given plain.
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { describeKinds } from "../../provider/codegen/package-schema.js";
import type { TypeRef } from "../../provider/codegen/describe.js";
// As users load it: the built package, by its name (its provider shims must serialize as they do for users).
import * as va from "pulumi-voiceagent";
import * as native from "pulumi-voiceagent/native";

/**
 * A value of a type, enough for a mock registration (mocks run no check); a string is `text`, which
 * differs per kind: the classes still refuse one number declared by a PhoneNumber and a LinkedNumber.
 */
function sample(t: TypeRef, text: string): unknown {
  if (t.shape === "array") return [];
  if (t.shape === "object" || t.shape === "map") return {};
  if (t.shape === "integer" || t.shape === "number") return 0;
  if (t.shape === "boolean") return false;
  return t.shape === "enum" ? t.values[0] : text;
}

/** A resource of `kind`, declared through the class the public entry exports for it. */
function declare(kind: string, name: string, args: Record<string, unknown>): pulumi.CustomResource {
  const found = Object.entries(va).find(([exported]) => exported === kind)?.[1];
  if (typeof found !== "function") throw new Error(`the public entry exports no class ${kind}`);
  const resource: unknown = Reflect.construct(found, [name, args]);
  if (!(resource instanceof pulumi.CustomResource)) throw new Error(`${kind} is not a custom resource`);
  return resource;
}

const registered: { type: string; inputs: Record<string, unknown> }[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, inputs: args.inputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    true,
  );
});

describe("the public classes", () => {
  const kinds = describeKinds();

  it.each(kinds.map((k) => [k.kind, k] as const))(
    "%s: every property of the kind is an output of the resource, set or not",
    (_kind, k) => {
      // Only the required arguments: every optional input and every output is left unset.
      const args = Object.fromEntries(
        k.properties.flatMap((p) => (p.input?.required ? [[p.name, sample(p.input.type, `x-${k.kind}`)]] : [])),
      );
      const properties = new Map(Object.entries(declare(k.kind, `r-${k.kind}`, args)));
      const missing = k.properties.filter((p) => !pulumi.Output.isInstance(properties.get(p.name))).map((p) => p.name);
      expect(missing).toEqual([]);
    },
  );

  it("sends no placeholder: an unset property is not an input of the registration", async () => {
    const call = new va.Call("placeholders", { fromNumber: "+15550010001", toNumber: "+15557654321", agent: "a" });
    await new Promise<void>((resolve) => call.id.apply(() => resolve()));
    const inputs = registered.find(
      (r) => r.type === "pulumi-nodejs:dynamic/voiceagent:Call" && r.inputs.fromNumber === "+15550010001",
    )?.inputs;
    // Besides the serialized provider, the logical name its check reads for a default name (kit/autoname.ts): no property.
    expect(Object.keys(inputs ?? {}).sort()).toEqual([
      "__logicalName",
      "__provider",
      "agent",
      "fromNumber",
      "toNumber",
    ]);
  });
});

describe("a secret input", () => {
  // The engine records inputs as the program gives them (additionalSecretOutputs covers outputs
  // only): a key given as a plain string must reach it wrapped as a secret.
  const secret = (value: unknown) => ({ [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value });

  it.each([
    ["dynamic", "pulumi-nodejs:dynamic/voiceagent:Voice", va.Voice],
    ["native", "voiceagent:index:Voice", native.Voice],
  ] as const)("given as a plain string, is registered as a secret (%s entry)", async (_entry, type, Voice) => {
    const voice = new Voice(`keyed-${type}`, { type: "voice_eleven_labs", vendorVoiceId: "rachel", apiKey: "k-1234" });
    await new Promise<void>((resolve) => voice.id.apply(() => resolve()));
    const inputs = registered.find((r) => r.type === type && r.inputs.vendorVoiceId === "rachel")?.inputs;
    expect(inputs).toMatchObject({ apiKey: secret("k-1234"), vendorVoiceId: "rachel" });
  });
});
