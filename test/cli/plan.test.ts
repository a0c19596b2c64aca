// Planning and writing the pulled program from an account held in memory.
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { buildPlan, PullPlanSchema, type PullPlan } from "../../provider/cli/plan.js";
import { projectFiles, projectName } from "../../provider/cli/project-files.js";
import { renderProgram } from "../../provider/cli/render.js";
import { fleetOfPlan } from "../../provider/cli/stack-file.js";
import { yamlProject } from "../../provider/cli/yaml-program.js";
import { checkFleet } from "../../provider/fleet/check.js";
import { VERSIONS } from "../helpers/versions.js";
import { make, typicalAccount } from "./fake-account.js";

/** One `new va.X(name, args)` the program made, with references shown as `<ref name>`. */
type Declared = { kind: string; name: string; args: Record<string, unknown> };

/**
 * Runs a rendered index.ts with a stand-in for the package that records each declaration; a
 * resource's `id` is a marker naming it, so references can be told from literals.
 */
function runProgram(source: string): Declared[] {
  const out = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
    reportDiagnostics: true,
  });
  expect(out.diagnostics ?? []).toEqual([]);
  const declared: Declared[] = [];
  const kind = (k: string) =>
    class {
      id: string;
      constructor(name: string, args: Record<string, unknown>) {
        declared.push({ kind: k, name, args });
        this.id = `<ref ${k}:${name}>`;
      }
    };
  const va = {
    Voice: kind("Voice"),
    Action: kind("Action"),
    Webhook: kind("Webhook"),
    Agent: kind("Agent"),
    PhoneNumber: kind("PhoneNumber"),
  };
  const require = (m: string) => {
    if (m !== "pulumi-voiceagent") throw new Error(`unexpected import ${m}`);
    return va;
  };
  new Function("require", "exports", out.outputText)(require, {});
  return declared;
}

const find = (plan: PullPlan, kind: string, id: string) => plan.resources.find((r) => r.kind === kind && r.id === id)!;

describe("buildPlan", () => {
  it("adopts every object by id and refers to related objects as resources", () => {
    const acc = typicalAccount();
    const plan = PullPlanSchema.parse(buildPlan(acc));
    expect(plan.resources.map((r) => r.kind)).toEqual([
      "Voice",
      "Voice",
      "Action",
      "Webhook",
      "Agent",
      "Agent",
      "PhoneNumber",
      "PhoneNumber",
    ]);
    expect(plan.skipped).toEqual([
      { collection: "numbers", id: acc.numbers[2]!.id, reason: expect.stringMatching(/not bound/) },
    ]);
    const support = find(plan, "Agent", acc.support.id);
    expect(support.args.agentId).toEqual({ value: acc.support.id });
    expect(support.args.voice).toEqual({
      ref: { kind: "Voice", name: "alloy", variable: "alloy", id: acc.voices[0]!.id },
    });
    expect(support.args.actions).toEqual({
      items: [{ ref: expect.objectContaining({ kind: "Action", id: acc.actions[0]!.id }) }],
    });
    expect(support.args.webhook).toEqual({
      ref: expect.objectContaining({ kind: "Webhook", id: acc.webhooks[0]!.id }),
    });
    expect(find(plan, "PhoneNumber", acc.numbers[1]!.id).args.inboundAgent).toEqual({
      ref: expect.objectContaining({ id: acc.sales.id }),
    });
  });

  it("with --only, objects of other kinds are referred to by id, with a note saying why", () => {
    const acc = typicalAccount();
    const plan = buildPlan(acc, ["agents", "numbers"]);
    expect(plan.resources.map((r) => r.kind)).toEqual(["Agent", "Agent", "PhoneNumber", "PhoneNumber"]);
    const support = find(plan, "Agent", acc.support.id);
    expect(support.args.voice).toEqual({ value: acc.voices[0]!.id });
    // The note names the voice and says why it is referred to by id: --only left it out.
    expect(support.notes.join("\n")).toMatch(/\bvoice\b[^\n]*--only/);
    expect(find(plan, "PhoneNumber", acc.numbers[0]!.id).args.inboundAgent).toEqual({
      ref: expect.objectContaining({ id: acc.support.id }),
    });
  });

  it("skips what the provider would refuse, naming the field, and cancelled numbers", () => {
    const acc = typicalAccount();
    const robot = make.voice({ type: "voice_robot", voice_name: "r2" });
    acc.voices.push(robot);
    acc.agents.push(make.agent(robot, { prompt: "You are the robot." }));
    acc.webhooks.push(make.webhook({ subscriptions: [] }));
    acc.numbers.push(make.number("+15550010004", acc.support, { active: false }));
    const plan = buildPlan(acc);
    const reasons = Object.fromEntries(plan.skipped.map((s) => [s.id, s.reason]));
    // Each names the field the provider would refuse.
    expect(reasons[robot.id]).toMatch(/\btype\b/);
    expect(reasons[robot.id]).toMatch(/refuse|not supported|cannot/i);
    expect(reasons[acc.webhooks[1]!.id]).toMatch(/\bsubscriptions\b/);
    expect(reasons[acc.webhooks[1]!.id]).toMatch(/refuse|not supported|cannot/i);
    expect(reasons[acc.numbers[3]!.id]).toMatch(/cancelled/);
    const robotAgent = plan.resources.find(
      (r) => r.args.prompt && "value" in r.args.prompt && r.args.prompt.value === "You are the robot.",
    )!;
    expect(robotAgent.args.voice).toEqual({ value: robot.id });
    expect(robotAgent.notes.join()).toMatch(/skipped/);
  });

  it("does not depend on the order the service listed objects in", () => {
    const acc = typicalAccount();
    for (let i = 0; i < 3; i++) acc.agents.push(make.agent(acc.voices[0]!, { prompt: "You are the support line." }));
    const expected = JSON.stringify(buildPlan(acc));
    fc.assert(
      fc.property(
        fc.shuffledSubarray(acc.agents, { minLength: acc.agents.length, maxLength: acc.agents.length }),
        fc.shuffledSubarray(acc.voices, { minLength: 2, maxLength: 2 }),
        (agents, voices) => {
          expect(JSON.stringify(buildPlan({ ...acc, agents, voices }))).toBe(expected);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe("renderProgram", () => {
  it("declares each object once with exactly the account's values, references as resources", () => {
    const acc = typicalAccount();
    acc.support.prompt = 'You are "support".\nNever say ${secret} or */ or \\ — ünïcödé 😀';
    acc.actions[0]!.config = { phone_number: "+15551234567", constructor: { x: 1 }, "odd key": [1, null, true] };
    const declared = runProgram(renderProgram(buildPlan(acc)));
    expect(declared).toHaveLength(8);
    const support = declared.find((d) => d.args.agentId === acc.support.id)!;
    expect(support).toMatchObject({
      kind: "Agent",
      args: { prompt: acc.support.prompt, initialMessage: "Hello!", voice: "<ref Voice:alloy>" },
    });
    expect(support.args.actions).toEqual(["<ref Action:end-conversation-4567>"]);
    const action = declared.find((d) => d.kind === "Action")!;
    expect(Object.getOwnPropertyNames(action.args.config)).toEqual(["phoneNumber", "constructor", "odd key"]);
    expect(action.args.config).toEqual({
      phoneNumber: "+15551234567",
      constructor: { x: 1 },
      "odd key": [1, null, true],
    });
    expect(declared.filter((d) => d.kind === "PhoneNumber").map((d) => d.args)).toEqual([
      { number: "+15550010001", inboundAgent: `<ref Agent:${support.name}>` },
      { number: "+15550010002", inboundAgent: "<ref Agent:sales-line>" },
    ]);
  });

  it("writes the project files as `pulumi new typescript` does", () => {
    const files = projectFiles(buildPlan(typicalAccount()), projectName("My Pulled: Account!"));
    expect([...files.keys()].sort()).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "index.ts",
      "package.json",
      "tsconfig.json",
    ]);
    expect(files.get("Pulumi.yaml")).toMatch(/^name: "my-pulled-account"\n.*runtime:\n  name: nodejs\n/s);
    const pkg = JSON.parse(files.get("package.json")!);
    expect(pkg).toMatchObject({
      main: "index.ts",
      dependencies: { "pulumi-voiceagent": "^0.5.0", "@pulumi/pulumi": `^${VERSIONS.nodejs}` },
      devDependencies: { typescript: expect.any(String), "@types/node": expect.any(String) },
    });
    expect(JSON.parse(files.get("tsconfig.json")!).compilerOptions).toMatchObject({
      strict: true,
      module: "commonjs",
      moduleResolution: "node",
    });
    expect(files.get("index.ts")).not.toMatch(/cancelOnDelete/);
  });
});

describe("an agent's and a voice's current-API fields (issue 35)", () => {
  // As a 2024 list page reads them: references by id, the prompt by a prompt object's id.
  const promptId = "6f9a4f0e-3b7e-4c55-9d6b-0a1b2c3d4e5f";
  const vdb = "7f9a4f0e-3b7e-4c55-9d6b-0a1b2c3d4e5f";
  const oai = "8f9a4f0e-3b7e-4c55-9d6b-0a1b2c3d4e5f";
  const account = () => {
    const acc = typicalAccount();
    const rime = make.voice({
      type: "voice_rime",
      voice_name: null,
      pitch: null,
      rate: null,
      speaker: "river",
      speed_alpha: 1.2,
      model_id: "mist",
    });
    const es = make.agent(rime, {
      prompt: promptId,
      prompt_id: promptId,
      name: "Recepción",
      language: "es",
      interrupt_sensitivity: "high",
      endpointing_sensitivity: "relaxed",
      ivr_navigation_mode: "off",
      conversation_speed: 1.1,
      initial_message_delay: 0.5,
      idle_time_seconds: 20,
      ask_if_human_present_on_idle: true,
      noise_suppression: false,
      run_do_not_call_detection: true,
      context_endpoint: "https://ctx.example.com/es",
      llm_temperature: 0.3,
      openai_model_name_override: "gpt-4o",
      llm_fallback: { provider: "azure", model_name: "gpt-4o-mini" },
      deepgram_keywords: { cita: 2 },
      vector_database: { id: vdb },
      openai_account_connection: { id: oai },
    });
    acc.voices.push(rime);
    acc.agents.push(es);
    return { acc, es };
  };
  /** The agent's arguments as a program declares them, written out on their own. */
  const ARGS = {
    promptId,
    name: "Recepción",
    language: "es",
    interruptSensitivity: "high",
    endpointingSensitivity: "relaxed",
    ivrNavigationMode: "off",
    conversationSpeed: 1.1,
    initialMessageDelay: 0.5,
    idleTimeSeconds: 20,
    askIfHumanPresentOnIdle: true,
    noiseSuppression: false,
    runDoNotCallDetection: true,
    contextEndpoint: "https://ctx.example.com/es",
    llmTemperature: 0.3,
    openaiModelNameOverride: "gpt-4o",
    llmFallback: { provider: "azure", modelName: "gpt-4o-mini" },
    deepgramKeywords: { cita: 2 },
    vectorDatabase: vdb,
    openaiAccountConnection: oai,
  };

  it("the pulled program declares each of them, and the prompt by its id", () => {
    const { acc, es } = account();
    const declared = runProgram(renderProgram(buildPlan(acc)));
    const agent = declared.find((d) => d.args.agentId === es.id);
    expect(agent?.name).toBe("recepcion");
    expect(agent?.args).toMatchObject(ARGS);
    expect(agent?.args).not.toHaveProperty("prompt");
    expect(declared.find((d) => d.args.speaker === "river")?.args).toMatchObject({ speedAlpha: 1.2, modelId: "mist" });
  });

  it("a value this release does not know is left out of every format, named with why; the rest is declared", () => {
    const { acc, es } = account();
    // What a newer service may send: a language and a sensitivity this release's check refuses.
    es.language = "tlh";
    es.interrupt_sensitivity = "extreme";
    const plan = PullPlanSchema.parse(buildPlan(acc));
    const { language: _l, interruptSensitivity: _i, ...rest } = ARGS;
    expect(plan.skipped.map((sk) => sk.id)).not.toContain(es.id);
    expect(plan.left.map((l) => [l.id, l.argument])).toEqual([
      [es.id, "language"],
      [es.id, "interruptSensitivity"],
    ]);
    for (const l of plan.left) expect(l.reason).toMatch(/"tlh"|"extreme"/);
    const agent = runProgram(renderProgram(plan)).find((d) => d.args.agentId === es.id);
    expect(agent?.args).toMatchObject(rest);
    expect(agent?.args).not.toHaveProperty("language");
    expect(agent?.args).not.toHaveProperty("interruptSensitivity");
    expect(renderProgram(plan)).toMatch(/language not declared: "tlh"/);
    // The stack-file form: the fleet passes its check (the whole fleet was refused before).
    const entry = Object.values(fleetOfPlan(plan).agents ?? {}).find((a) => a.id === es.id);
    expect(entry).not.toHaveProperty("language");
    expect(checkFleet({ agents: { es: { ...entry, voice: es.voice.id } } })).toMatchObject({ ok: true });
    const yaml = yamlProject(plan, "pulled").files.get("Pulumi.yaml") ?? "";
    expect(yaml).not.toMatch(/\blanguage: /);
    // A value whose absence would change the object (an opening message unset is cleared) refuses it, naming the field.
    const long = make.agent(acc.voices[0]!, { initial_message: "x".repeat(1_000_000) });
    acc.agents.push(long);
    expect(buildPlan(acc).skipped).toContainEqual(
      expect.objectContaining({ id: long.id, reason: expect.stringMatching(/initialMessage/) }),
    );
  });

  it("the stack file's fleet holds them and passes the fleet's check; the YAML program declares them", () => {
    const { acc, es } = account();
    const plan = buildPlan(acc);
    const fleet = fleetOfPlan(plan);
    const entry = Object.values(fleet.agents ?? {}).find((a) => a.id === es.id);
    expect(entry).toMatchObject(ARGS);
    // The fleet's voices are voice_base-shaped: check the agent (its voice by UUID) on its own.
    expect(checkFleet({ agents: { es: { ...entry, voice: es.voice.id } } })).toMatchObject({ ok: true });
    const yaml = yamlProject(plan, "pulled").files.get("Pulumi.yaml") ?? "";
    for (const key of Object.keys(ARGS)) expect(yaml, key).toMatch(new RegExp(`\\b${key}: `));
  });
});
