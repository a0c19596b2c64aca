// A kind added on routes the service already has touches its definition (greeter.ts), its
// examples (examples/greeter.ts, .py, .go, .yaml; in the package they sit in provider/examples, where a
// test compiles them) and one registration line, here the mock of the registry's module below: the plugin serves it, the
// dynamic path runs it, the package schema and classes are generated for it, and audit, recover,
// drift and pull handle it, without an edit anywhere else.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { emptyAccount } from "../../provider/cli/account.js";
import { classify } from "../../provider/cli/audit.js";
import { KIND_NAMES, pulledKinds, RESOURCE_KINDS } from "../../provider/cli/kinds.js";
import { buildPlan } from "../../provider/cli/plan.js";
import { decide } from "../../provider/cli/recover.js";
import { parseStackExport } from "../../provider/cli/state.js";
import { EXAMPLE_DIRS } from "../../provider/codegen/examples.js";
import { generatedFiles } from "../../provider/codegen/generated.js";
import { dynamicToken, kindOfType, tokenOf } from "../../provider/identity.js";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { make } from "../cli/fake-account.js";
import { exportOf } from "../cli/fake-state.js";
import { REPO_ROOT } from "../helpers/consumer.js";
import { inProcessPlugin } from "../helpers/plugin-harness.js";

vi.mock("../../provider/resources/kinds/index.js", async (importOriginal) => {
  const registry = await importOriginal<typeof import("../../provider/resources/kinds/index.js")>();
  const { registered } = await import("../../provider/resources/kit/registered.js");
  const { greeterKind } = await import("./greeter.js");
  // The one registration line.
  const KINDS = [...registry.KINDS, registered(greeterKind)];
  return { ...registry, KINDS, KIND_NAMES: KINDS.map((k) => k.kind) };
});
// The trial's examples are no part of the package (they name a class it lacks): the codegen finds them here.
EXAMPLE_DIRS.push(path.join(__dirname, "examples"));

const providerDir = path.join(REPO_ROOT, "provider");

describe("a trial kind on existing routes", () => {
  it("is served by the native plugin and the dynamic path, and checked like any kind", async () => {
    const { provider } = inProcessPlugin();
    // Check sends nothing: the address is never dialled.
    await provider.configure({ config: { baseUrl: "http://127.0.0.1:9", token: "t" }, plainKeys: [] });
    const ok = await provider.check({
      urn: `urn:pulumi:dev::p::${tokenOf("Greeter")}::hello`,
      type: tokenOf("Greeter"),
      olds: {},
      news: { prompt: "Hi", voice: randomUUID() },
    });
    expect(ok.failures).toEqual([]);
    const bad = await runtimeFor("Greeter").check(undefined, {}, { prompt: "", voice: randomUUID() });
    // The field is named in the reason (a property would make the engine print the value).
    expect(bad.failures).toContainEqual({ property: "", reason: expect.stringMatching(/^prompt\b/) });
  });

  it("gets its schema resource and generated class, and the hand-written files are the definition and the registration", () => {
    const fresh = generatedFiles(providerDir);
    const schema = fresh.find((f) => f.path.endsWith("schema.json"));
    expect(JSON.parse(schema?.text ?? "{}").resources).toHaveProperty([tokenOf("Greeter")]);
    const changed = fresh
      .filter((f) => f.text.includes("Greeter"))
      .map((f) => path.relative(providerDir, f.path))
      .sort();
    // What `npm run gen` rewrites for it (the SDKs follow from schema.json with `npm run gen:sdks`).
    expect(changed).toEqual([
      "generated/dynamic/greeter.ts",
      "generated/dynamic/index.ts",
      "generated/native.ts",
      "generated/properties.ts",
      "schema.json",
    ]);
  });

  it(`audit and drift count it as managing its collection's object; recover matches its pending create there; pull still declares the \
collection's own kind`, () => {
    expect(RESOURCE_KINDS.Greeter).toBe("agents");
    // How drift and the state parser recognise a resource of ours, on either provider.
    expect([kindOfType(tokenOf("Greeter"), KIND_NAMES), kindOfType(dynamicToken("Greeter"), KIND_NAMES)]).toEqual([
      "Greeter",
      "Greeter",
    ]);
    const voice = make.voice();
    const agent = make.agent(voice, { prompt: "Hi there" });
    const refs = parseStackExport(exportOf([{ kind: "Greeter", id: agent.id, name: "hello" }]), "dev");
    expect(refs).toMatchObject([{ kind: "Greeter", collection: "agents", id: agent.id }]);
    const report = classify(
      { ...emptyAccount(), voices: [voice], actions: [], webhooks: [], agents: [agent], numbers: [], gaps: {} },
      refs,
      ["agents"],
    );
    expect(report.findings).toEqual([]);

    const pending = {
      type: "creating" as const,
      resource: {
        urn: `urn:pulumi:dev::p::${dynamicToken("Greeter")}::hello`,
        type: dynamicToken("Greeter"),
        inputs: { prompt: "Hi there", voice: voice.id },
      },
    };
    const live = {
      ...emptyAccount(),
      voices: [voice],
      actions: [],
      webhooks: [],
      agents: [agent],
      numbers: [],
      calls: [],
      gaps: {},
    };
    expect(decide([pending], { managed: new Map(), urns: new Set(), before: new Set([voice.id]) }, live)).toMatchObject(
      [{ kind: "Greeter", outcome: "adopt", id: agent.id }],
    );

    expect(pulledKinds("agents")).toEqual(["Agent"]);
    expect(
      buildPlan({
        ...emptyAccount(),
        voices: [voice],
        actions: [],
        webhooks: [],
        agents: [agent],
        numbers: [],
        gaps: {},
      }).resources.map((r) => r.kind),
    ).toEqual(["Voice", "Agent"]);
  });
});
