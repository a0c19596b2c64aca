// A field added to a kind is its definition (the kind's file), its doc (the user guide's table) and
// what `npm run gen` writes: nothing else knows it. Proven the other way round, as a diff: the Agent
// kind without one of its fields (`noiseSuppression`, a current-API boolean) stands for the tree
// before the field was added; the package schema and classes, the checks (its type, the API
// generation it needs), `voiceagent pull`, the generated registrations and the Fleet (its schema,
// its public types, its package-schema type) differ from today's by exactly that field, and the only
// hand-written files of the provider that name it are the two.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { emptyAccount } from "../../provider/cli/account.js";
import { checkFleet } from "../../provider/fleet/check.js";
import { entrySchema } from "../../provider/fleet/entries.js";
import { buildPlan } from "../../provider/cli/plan.js";
import { generatedFiles } from "../../provider/codegen/generated.js";
import { agentKind } from "../../provider/resources/kinds/agent.js";
import { registered } from "../../provider/resources/kit/registered.js";
import { kindRuntime } from "../../provider/resources/kit/runtime.js";
import { AGENT_CURRENT_FIELDS } from "../../provider/schemas/index.js";
import { make } from "../cli/fake-account.js";
import { FIELD, WIRE, withoutTheField } from "./trial-field-before.js";
import { REPO_ROOT } from "../helpers/consumer.js";
import { Host } from "../../provider/host.js";
import { RequestScope } from "../../provider/resources/kit/scope.js";

const agentBefore = withoutTheField();

/** Which of the two the registry serves (the mock below reads it on each use). */
const tree = vi.hoisted(() => ({ before: false }));

vi.mock("../../provider/resources/kinds/index.js", async (importOriginal) => {
  const registry = await importOriginal<typeof import("../../provider/resources/kinds/index.js")>();
  const { registered } = await import("../../provider/resources/kit/registered.js");
  const { withoutTheField: without } = await import("./trial-field-before.js");
  const before = registry.KINDS.map((k) => (k.kind === "Agent" ? registered(without()) : k));
  return {
    ...registry,
    get KINDS() {
      return tree.before ? before : registry.KINDS;
    },
  };
});

const providerDir = path.join(REPO_ROOT, "provider");

/** The generated files of the registry as it stands: `before` without the field, else today's. */
function generated(before: boolean): Map<string, string> {
  tree.before = before;
  try {
    return new Map(generatedFiles(providerDir).map((f) => [path.relative(REPO_ROOT, f.path), f.text]));
  } finally {
    tree.before = false;
  }
}

describe("a trial field added to a kind", () => {
  it("changes what `npm run gen` writes for its kind only, and the schema the SDKs are generated from holds it", () => {
    const [before, after] = [generated(true), generated(false)];
    const changed = [...after.keys()].filter((f) => before.get(f) !== after.get(f)).sort();
    expect(changed).toEqual([
      "provider/generated/dynamic/agent.ts",
      "provider/generated/fleet-spec.ts",
      "provider/generated/properties.ts",
      "provider/schema.json",
    ]);
    const schemaOf = (files: Map<string, string>) => JSON.parse(files.get("provider/schema.json") ?? "{}");
    const agent = schemaOf(after).resources["voiceagent:index:Agent"];
    expect(agent.inputProperties[FIELD]).toMatchObject({ type: "boolean" });
    expect(agent.properties[FIELD]).toMatchObject({ type: "boolean" });
    expect(schemaOf(before).resources["voiceagent:index:Agent"].inputProperties).not.toHaveProperty(FIELD);
    // The Fleet's agent type in the package schema (every SDK's Fleet class), and in TypeScript.
    expect(schemaOf(after).types["voiceagent:index:FleetAgent"].properties[FIELD]).toMatchObject({ type: "boolean" });
    expect(schemaOf(before).types["voiceagent:index:FleetAgent"].properties).not.toHaveProperty(FIELD);
    const fleetAgent = (files: Map<string, string>) =>
      /export interface FleetAgent [^{]*\{([\s\S]*?)\n\}/.exec(
        files.get("provider/generated/fleet-spec.ts") ?? "",
      )?.[1];
    expect(fleetAgent(after)).toContain(`  ${FIELD}?: boolean;`);
    expect(fleetAgent(before)).toBeDefined();
    expect(fleetAgent(before)).not.toContain(FIELD);
    // The committed SDKs are generated from that schema (`npm run gen:sdks`), never by hand.
    const sdkFiles = execFileSync("git", ["ls-files", "sdk"], { cwd: REPO_ROOT, encoding: "utf8" }).split("\n");
    const python = sdkFiles.find((f) => f.endsWith("/agent.py"));
    const go = sdkFiles.find((f) => f.endsWith("/agent.go"));
    expect(readFileSync(path.join(REPO_ROOT, python ?? ""), "utf8")).toContain(WIRE);
    expect(readFileSync(path.join(REPO_ROOT, go ?? ""), "utf8")).toContain("NoiseSuppression");
  });

  it("is checked by its type and by the API generation it needs, from its definition alone", async () => {
    const host = new Host({ notes: () => {} });
    const config = (api: string) => ({ get: (key: string) => (key === "voiceagent:api" ? api : undefined) });
    const settings = { baseUrl: "http://127.0.0.1:9", token: "t", config: config("2023") };
    const news = { prompt: "Hi", voice: "6f0e3c1a-8a4b-4c8e-9d43-0c1c7b5e2a10", [FIELD]: true };
    const refused = await kindRuntime(agentKind).check({ scope: RequestScope.of(host, settings), olds: {}, news });
    expect(refused.failures).toEqual([
      { property: "", reason: expect.stringMatching(new RegExp(`^${FIELD}: it needs`)) },
    ]);
    const before = await kindRuntime(agentBefore).check({ scope: RequestScope.of(host, settings), olds: {}, news });
    expect(JSON.stringify(before.failures)).not.toContain(`${FIELD}: it needs`);
    const mistyped = await kindRuntime(agentKind).check({
      scope: RequestScope.of(host, { ...settings, config: config("2024") }),
      olds: {},
      news: { ...news, [FIELD]: "yes" },
    });
    expect(mistyped.failures).toContainEqual({
      property: "",
      reason: expect.stringMatching(new RegExp(`^${FIELD}\\b`)),
    });
  });

  it("needs the generation its `since` says, which the wire layer's list of current-API agent fields agrees with", () => {
    const since = Object.values(agentKind.fields).flatMap((f) => (f.since === "2024" && f.wire ? [f.wire] : []));
    expect(new Set(since)).toEqual(new Set(AGENT_CURRENT_FIELDS));
  });

  it("is taken by the Fleet's check, with its type, from its definition alone", () => {
    const agents = (value: unknown) => ({ agents: { a: { prompt: "Hi", voice: randomUUID(), [FIELD]: value } } });
    expect(checkFleet(agents(true))).toMatchObject({ ok: true, fleet: { agents: { a: { [FIELD]: true } } } });
    expect(checkFleet(agents("yes"))).toEqual({
      ok: false,
      problems: [expect.stringMatching(new RegExp(`^fleet\\.agents\\.a\\.${FIELD}: .*boolean`))],
    });
    // The Agent's entry before the field was defined refuses it as an unknown key.
    const entry = { prompt: "Hi", voice: "v", [FIELD]: true };
    expect(entrySchema(registered(agentKind).info).safeParse(entry).success).toBe(true);
    expect(entrySchema(registered(agentBefore).info).safeParse(entry).error?.issues).toMatchObject([
      { code: "unrecognized_keys", keys: [FIELD] },
    ]);
  });

  it("is declared by `voiceagent pull` from the live object, and not before it was defined", () => {
    const voice = make.voice();
    const agent = make.agent(voice, { prompt: "You are the support line.", [WIRE]: true });
    const account = {
      ...emptyAccount(),
      voices: [voice],
      actions: [],
      webhooks: [],
      agents: [agent],
      numbers: [],
      gaps: {},
    };
    expect(buildPlan(account).resources.find((r) => r.kind === "Agent")?.args).toHaveProperty(FIELD);
    // What the CLI asks the registry (cli/plan.ts: the kind's `pull.adopt`), without the field.
    expect(registered(agentBefore).info.pull?.adopt(agent).args).not.toHaveProperty(FIELD);
    expect(registered(agentKind).info.pull?.adopt(agent).args).toMatchObject({ [FIELD]: true });
  });

  it("is named, among the provider's hand-written files, by its kind's definition and its doc only", () => {
    const files = execFileSync("git", ["grep", "-l", "-e", FIELD, "-e", WIRE, "--", "."], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    })
      .split("\n")
      .filter(Boolean);
    const handWritten = files.filter(
      (f) =>
        // What `npm run gen` and `npm run gen:sdks` write.
        !/^(provider\/generated\/|provider\/schema\.json$|sdk\/)/.test(f) &&
        // The service's side: its wire schemas, its contract, the emulator that plays it.
        !/^(provider\/schemas\/|docs\/contract|emulator\/)/.test(f) &&
        // The tests.
        !/^test\//.test(f) &&
        f !== "CHANGELOG.md",
    );
    expect(handWritten.sort()).toEqual(["docs/current-fields.md", "provider/resources/kinds/agent.ts"]);
  });
});
