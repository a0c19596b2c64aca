// `voiceagent pull`, `audit` and `recover` of an account holding every kind (issue 35): the current API's
// prompts, vector databases, account connections and linked numbers are declared as their own
// kinds, an agent refers to them as resources, a linked number is a LinkedNumber (not a
// PhoneNumber binding), and no secret the service echoes is written anywhere.
import { randomUUID } from "node:crypto";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { AccountConnection, Prompt, VectorDatabase } from "../../provider/client/index.js";
import { AuditReportSchema, classify } from "../../provider/cli/audit.js";
import { buildPlan, PullPlanSchema } from "../../provider/cli/plan.js";
import { decide, type Live } from "../../provider/cli/recover.js";
import type { PendingOperation } from "../../provider/cli/recover-state.js";
import { renderProgram } from "../../provider/cli/render.js";
import { fleetOfPlan, fleetSecrets, renderStackFile } from "../../provider/cli/stack-file.js";
import { checkFleet } from "../../provider/fleet/check.js";
import { parseStackExport } from "../../provider/cli/state.js";
import { yamlProject } from "../../provider/cli/yaml-program.js";
import { make, typicalAccount } from "./fake-account.js";
import { exportOf } from "./fake-state.js";

const USER = randomUUID();
/** Secrets as a service that echoes them would list them: none may appear in what pull writes. */
const OPENAI_KEY = "sk-openai-never-written-4c1f";
const TWILIO_TOKEN = "twilio-token-never-written-9e2d";
const PINECONE_KEY = "pc-key-never-written-71aa";

function everyKind() {
  const acc = typicalAccount();
  const prompt: Prompt = {
    id: randomUUID(),
    user_id: USER,
    content: "Eres la recepción de la clínica.",
    collect_fields: [{ field_type: "field_type_email", label: "Correo", name: "email" }],
    context_endpoint: null,
    prompt_template: null,
  };
  const vdb: VectorDatabase = {
    id: randomUUID(),
    user_id: USER,
    type: "vector_database_pinecone",
    index: "clinic-faq",
    api_key: PINECONE_KEY,
    api_environment: "us-east-1-aws",
  };
  const openai: AccountConnection = {
    id: randomUUID(),
    user_id: USER,
    type: "account_connection_openai",
    credentials: { openai_api_key: OPENAI_KEY },
  };
  const twilio: AccountConnection = {
    id: randomUUID(),
    user_id: USER,
    type: "account_connection_twilio",
    credentials: { twilio_account_sid: "AC00000000000000000000000000c1f2", twilio_auth_token: TWILIO_TOKEN },
    steering_pool: ["+15550001111"],
    account_supports_any_caller_id: false,
  };
  const es = make.agent(acc.voices[0]!, {
    prompt: prompt.content ?? "",
    prompt_id: prompt.id,
    name: "Recepción",
    language: "es",
    vector_database: { id: vdb.id },
    openai_account_connection: { id: openai.id },
  });
  // As a list page of the current API gives it: its agent and connection by id.
  const linked = make.number("+15550002222", es, {
    telephony_account_connection: twilio.id,
    outbound_only: false,
  });
  acc.prompts.push(prompt);
  acc.vector_databases.push(vdb);
  acc.account_connections.push(openai, twilio);
  acc.agents.push(es);
  acc.numbers.push(linked);
  return { acc, prompt, vdb, openai, twilio, es, linked };
}

/** One `new va.X(name, args)` the program made; references show as `<ref Kind:name>`, secrets as `<secret key>`. */
type Declared = { kind: string; name: string; args: Record<string, unknown> };
function runProgram(source: string): Declared[] {
  const out = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
    reportDiagnostics: true,
  });
  expect(out.diagnostics ?? []).toEqual([]);
  const declared: Declared[] = [];
  const va = new Proxy(
    {},
    {
      get: (_t, k: string) =>
        class {
          id: string;
          constructor(name: string, args: Record<string, unknown>) {
            declared.push({ kind: k, name, args });
            this.id = `<ref ${k}:${name}>`;
          }
        },
    },
  );
  const pulumi = {
    Config: class {
      requireSecret(key: string) {
        return `<secret ${key}>`;
      }
    },
  };
  const require = (m: string) => {
    if (m === "pulumi-voiceagent") return va;
    if (m === "@pulumi/pulumi") return pulumi;
    throw new Error(`unexpected import ${m}`);
  };
  new Function("require", "exports", out.outputText)(require, {});
  return declared;
}

describe("pull of an account holding every kind", () => {
  it("declares each new kind adopted by its id, the agent's and the linked number's references as resources", () => {
    const { acc, prompt, vdb, openai, twilio, es, linked } = everyKind();
    const declared = runProgram(renderProgram(buildPlan(acc)));
    const one = (kind: string, pred: (d: Declared) => boolean) => {
      const found = declared.filter((d) => d.kind === kind && pred(d));
      expect(found, kind).toHaveLength(1);
      return found[0]!;
    };
    const p = one("Prompt", (d) => d.args.promptId === prompt.id);
    expect(p.args).toEqual({
      promptId: prompt.id,
      content: prompt.content,
      collectFields: [{ fieldType: "field_type_email", label: "Correo", name: "email" }],
    });
    const v = one("VectorDatabase", (d) => d.args.vectorDatabaseId === vdb.id);
    expect(v.args).toEqual({
      vectorDatabaseId: vdb.id,
      type: "vector_database_pinecone",
      index: "clinic-faq",
      apiEnvironment: "us-east-1-aws",
      apiKey: expect.stringMatching(/^<secret \w+>$/),
    });
    const o = one("AccountConnection", (d) => d.args.accountConnectionId === openai.id);
    expect(o.args).toEqual({
      accountConnectionId: openai.id,
      type: "account_connection_openai",
      openaiApiKey: expect.stringMatching(/^<secret \w+>$/),
    });
    const t = one("AccountConnection", (d) => d.args.accountConnectionId === twilio.id);
    expect(t.args).toEqual({
      accountConnectionId: twilio.id,
      type: "account_connection_twilio",
      twilioAccountSid: "AC00000000000000000000000000c1f2",
      twilioAuthToken: expect.stringMatching(/^<secret \w+>$/),
      steeringPool: ["+15550001111"],
      accountSupportsAnyCallerId: false,
    });
    const a = one("Agent", (d) => d.args.agentId === es.id);
    expect(a.args).toMatchObject({
      promptId: `<ref Prompt:${p.name}>`,
      vectorDatabase: `<ref VectorDatabase:${v.name}>`,
      openaiAccountConnection: `<ref AccountConnection:${o.name}>`,
    });
    expect(a.args).not.toHaveProperty("prompt");
    const n = one("LinkedNumber", (d) => d.args.number === linked.number);
    expect(n.args).toEqual({
      number: linked.number,
      outboundOnly: false,
      telephonyAccountConnection: `<ref AccountConnection:${t.name}>`,
      inboundAgent: `<ref Agent:${a.name}>`,
    });
    // The numbers sold by the service stay PhoneNumber bindings; the linked one is not one of them.
    expect(declared.filter((d) => d.kind === "PhoneNumber").map((d) => d.args.number)).toEqual(
      acc.numbers.filter((x) => x.inbound_agent && x !== linked).map((x) => x.number),
    );
  });

  it("writes no secret the service echoed, in the plan, the program or the YAML project; says what to supply", () => {
    const { acc } = everyKind();
    const plan = PullPlanSchema.parse(buildPlan(acc));
    const program = renderProgram(plan);
    const yaml = yamlProject(plan, "pulled");
    const written = [JSON.stringify(plan), program, ...yaml.files.values(), JSON.stringify([...yaml.secrets])];
    for (const secret of [OPENAI_KEY, TWILIO_TOKEN, PINECONE_KEY])
      for (const text of written) expect(text).not.toContain(secret);
    // Each secret is a config key the program reads, listed with what the user must supply.
    const keys = [...program.matchAll(/requireSecret\("(\w+)"\)/g)].map((m) => m[1]);
    expect(keys).toHaveLength(3);
    for (const key of keys) {
      expect(program).toMatch(new RegExp(`// +pulumi config set --secret ${key} +# .+`));
      expect(yaml.files.get("Pulumi.yaml")).toMatch(new RegExp(`  ${key}:\\n    type: string\\n    secret: true`));
      expect(yaml.files.get("Pulumi.yaml")).toContain(`"\${${key}}"`);
    }
    expect(program).toMatch(/Pinecone API key of index clinic-faq/);
    expect(program).toMatch(/auth token of Twilio account AC00000000000000000000000000c1f2/);
  });
});

describe("pull of an account holding every action type and a webhook without a method", () => {
  const SIGNATURE = "sig-never-written-5b0e";
  const phrased = (phrase: string) => ({
    type: "action_trigger_phrase_based",
    config: { phrase_triggers: [{ phrase, conditions: ["phrase_condition_type_contains"] }] },
  });
  function actionsAccount() {
    const acc = typicalAccount();
    const external = make.action({
      type: "action_external",
      config: {
        name: "lookup_patient",
        description: "Finds a patient.",
        url: "https://api.clinic.example/patients",
        input_schema: { type: "object", properties: { dob: { type: "string" } } },
        speak_on_send: true,
        speak_on_receive: false,
        processing_mode: null,
        signature_secret: SIGNATURE,
      },
      action_trigger: { type: "action_trigger_function_call", config: null },
    });
    const transfer = make.action({
      type: "action_transfer_call",
      config: { phone_number: "+15550004444" },
      action_trigger: phrased("talk to a human"),
    });
    const conference = make.action({
      type: "action_add_to_conference",
      config: { phone_number: "+15550005555", place_primary_on_hold: true },
    });
    const hold = make.action({ type: "action_set_hold", config: {}, action_trigger: phrased("please hold") });
    const dtmf = make.action({ type: "action_dtmf", config: {} });
    const bye = make.action({ type: "action_end_conversation", config: {}, action_trigger: phrased("goodbye") });
    const bare = make.webhook({ method: null });
    acc.actions.push(external, transfer, conference, hold, dtmf, bye);
    acc.webhooks.push(bare);
    return { acc, external, transfer, conference, hold, bare };
  }

  it("declares each type with its config and trigger, the webhook as POST's default, and never the signature secret", () => {
    const { acc, external, transfer, conference, hold, bare } = actionsAccount();
    const plan = PullPlanSchema.parse(buildPlan(acc));
    expect(plan.skipped.filter((s) => s.collection !== "numbers")).toEqual([]);
    const program = renderProgram(plan);
    const declared = runProgram(program);
    const args = (id: string) => declared.find((d) => d.kind === "Action" && d.args.actionId === id)?.args;
    expect(new Set(declared.filter((d) => d.kind === "Action").map((d) => d.args.type))).toEqual(
      new Set([
        "action_end_conversation",
        "action_transfer_call",
        "action_dtmf",
        "action_external",
        "action_add_to_conference",
        "action_set_hold",
      ]),
    );
    expect(args(external.id)).toEqual({
      actionId: external.id,
      type: "action_external",
      config: {
        name: "lookup_patient",
        description: "Finds a patient.",
        url: "https://api.clinic.example/patients",
        inputSchema: { type: "object", properties: { dob: { type: "string" } } },
        speakOnSend: true,
        speakOnReceive: false,
      },
      signatureSecret: expect.stringMatching(/^<secret \w+>$/),
    });
    expect(args(transfer.id)).toEqual({
      actionId: transfer.id,
      type: "action_transfer_call",
      config: { phoneNumber: "+15550004444" },
      actionTrigger: {
        type: "action_trigger_phrase_based",
        phraseTriggers: [{ phrase: "talk to a human", conditions: ["phrase_condition_type_contains"] }],
      },
    });
    expect(args(conference.id)?.config).toEqual({ phoneNumber: "+15550005555", placePrimaryOnHold: true });
    expect(args(hold.id)?.actionTrigger).toMatchObject({ phraseTriggers: [{ phrase: "please hold" }] });
    const hook = declared.find((d) => d.kind === "Webhook" && d.args.webhookId === bare.id);
    expect(hook?.args).not.toHaveProperty("method");
    const yaml = yamlProject(plan, "pulled");
    for (const text of [JSON.stringify(plan), program, ...yaml.files.values()]) expect(text).not.toContain(SIGNATURE);
    expect(program).toMatch(/signature secret of external action/);
  });
});

describe("audit of an account holding every kind", () => {
  it("names each unmanaged object of the new kinds, and a linked number no stack manages even with no agent", () => {
    const { acc, prompt, vdb, openai, twilio, es, linked } = everyKind();
    const outbound = make.number("+15550003333", null, { telephony_account_connection: twilio.id, active: null });
    acc.numbers.push(outbound);
    const managed = parseStackExport(
      exportOf([
        ...acc.voices.map((v, i) => ({ kind: "Voice", id: v.id, name: `voice-${i}` })),
        ...acc.actions.map((a, i) => ({ kind: "Action", id: a.id, name: `action-${i}` })),
        ...acc.webhooks.map((w, i) => ({ kind: "Webhook", id: w.id, name: `webhook-${i}` })),
        ...acc.agents.map((a, i) => ({ kind: "Agent", id: a.id, name: `agent-${i}` })),
        ...acc.numbers
          .filter((n) => n.inbound_agent && n !== linked)
          .map((n, i) => ({ kind: "PhoneNumber", id: n.id, name: `line-${i}` })),
      ]),
      "dev",
    );
    const report = AuditReportSchema.parse(classify(acc, managed));
    expect(report.findings.map((f) => `${f.finding} ${f.collection} ${f.id}`).sort()).toEqual(
      [
        `unmanaged prompts ${prompt.id}`,
        `unmanaged vector_databases ${vdb.id}`,
        `unmanaged account_connections ${openai.id}`,
        `unmanaged account_connections ${twilio.id}`,
        `unmanaged numbers ${linked.id}`,
        `unmanaged numbers ${outbound.id}`,
      ].sort(),
    );
    expect(report.findings.find((f) => f.id === vdb.id)?.label).toBe("clinic-faq");
    // Managed as LinkedNumber, Prompt, VectorDatabase and AccountConnection, it is clean, and an
    // active-null linked number counts as existing.
    const all = parseStackExport(
      exportOf([
        ...managed.map((r) => ({ kind: r.kind, id: r.id, name: r.name })),
        { kind: "Prompt", id: prompt.id, name: "prompt" },
        { kind: "VectorDatabase", id: vdb.id, name: "vdb" },
        { kind: "AccountConnection", id: openai.id, name: "openai" },
        { kind: "AccountConnection", id: twilio.id, name: "twilio" },
        { kind: "LinkedNumber", id: linked.id, name: "linked" },
        { kind: "LinkedNumber", id: outbound.id, name: "outbound" },
      ]),
      "dev",
    );
    expect(classify(acc, all).findings).toEqual([]);
    expect(es.prompt_id).toBe(prompt.id);
  });
});

describe("recover of the current API's kinds", () => {
  const dyn = (kind: string) => `pulumi-nodejs:dynamic/voiceagent:${kind}`;
  const pending = (kind: string, name: string, inputs: Record<string, unknown>): PendingOperation => ({
    type: "creating",
    resource: {
      urn: `urn:pulumi:dev::p::${dyn(kind)}::${name}`,
      type: dyn(kind),
      inputs: { __provider: "x", ...inputs },
    },
  });
  const liveOf = (acc: ReturnType<typeof everyKind>["acc"]): Live => ({ ...acc, calls: [] });
  // As the state holds a secret input: encrypted, never the value the service was sent.
  const encrypted = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };

  it("a prompt made since the snapshot is adopted by what its create sent", () => {
    const { acc, prompt } = everyKind();
    const [d] = decide(
      [pending("Prompt", "reception", { content: prompt.content })],
      { managed: new Map(), urns: new Set(), before: new Set() },
      liveOf(acc),
    );
    expect(d).toMatchObject({ outcome: "adopt", id: prompt.id });
  });

  it(`a connection or a vector database is never matched by its body (its secret is encrypted): the unmanaged ones are offered, nothing \
cleared`, () => {
    const { acc, vdb, openai, twilio } = everyKind();
    const ev = { managed: new Map([[openai.id, "dev"]]), urns: new Set<string>(), before: new Set<string>() };
    const [c, v] = decide(
      [
        pending("AccountConnection", "twilio", {
          type: "account_connection_twilio",
          twilioAccountSid: "AC00000000000000000000000000c1f2",
          twilioAuthToken: encrypted,
        }),
        pending("VectorDatabase", "faq", { index: "clinic-faq", apiKey: encrypted, apiEnvironment: "us-east-1-aws" }),
      ],
      ev,
      liveOf(acc),
    );
    expect(c).toMatchObject({
      outcome: "unresolved",
      candidates: [twilio.id],
      paste: [`accountConnectionId: "${twilio.id}"`],
    });
    expect(v).toMatchObject({ outcome: "unresolved", candidates: [vdb.id] });
    // Named by its adopt input, it is adopted.
    const [named] = decide(
      [pending("VectorDatabase", "faq", { vectorDatabaseId: vdb.id, apiKey: encrypted })],
      ev,
      liveOf(acc),
    );
    expect(named).toMatchObject({ outcome: "adopt", id: vdb.id });
  });
});

describe("pull --format stack of an account holding every kind", () => {
  it("writes the new kinds as the fleet's sections, references by key, passes the fleet check, and holds no secret", () => {
    const { acc, prompt, vdb, openai, twilio, es, linked } = everyKind();
    const plan = buildPlan(acc);
    const fleet = fleetOfPlan(plan);
    expect(checkFleet(fleet)).toMatchObject({ ok: true });
    const key = (section: string, id: string) =>
      Object.entries(fleet[section] ?? {}).find(([, e]) => e.id === id)?.[0] ?? `none in ${section}`;
    expect(fleet.prompts?.[key("prompts", prompt.id)]).toMatchObject({ content: prompt.content });
    expect(fleet.vectorDatabases?.[key("vectorDatabases", vdb.id)]).toEqual({
      id: vdb.id,
      type: "vector_database_pinecone",
      index: "clinic-faq",
      apiEnvironment: "us-east-1-aws",
    });
    expect(fleet.accountConnections?.[key("accountConnections", twilio.id)]).toMatchObject({
      type: "account_connection_twilio",
      steeringPool: ["+15550001111"],
    });
    expect(fleet.agents?.[key("agents", es.id)]).toMatchObject({
      promptId: key("prompts", prompt.id),
      vectorDatabase: key("vectorDatabases", vdb.id),
      openaiAccountConnection: key("accountConnections", openai.id),
    });
    const line = Object.values(fleet.lines ?? {}).find((l) => l.number === linked.number);
    expect(line).toEqual({
      number: linked.number,
      agent: key("agents", es.id),
      link: { connection: key("accountConnections", twilio.id), outboundOnly: false },
    });
    const text = renderStackFile("pulled", fleet);
    for (const secret of [OPENAI_KEY, TWILIO_TOKEN, PINECONE_KEY]) expect(text).not.toContain(secret);
    expect(
      fleetSecrets(plan, "pulled")
        .map((s) => s.path.replace(/\.[^.]+\.(\w+)$/, ".<key>.$1"))
        .sort(),
    ).toEqual(
      [
        "pulled:fleet.accountConnections.<key>.openaiApiKey",
        "pulled:fleet.accountConnections.<key>.twilioAuthToken",
        "pulled:fleet.vectorDatabases.<key>.apiKey",
      ].sort(),
    );
  });

  it("the fleet check names a reference to a prompt, vector database or connection the fleet does not declare", () => {
    const r = checkFleet({
      agents: { desk: { voice: "00000000-0000-4000-8000-000000000001", promptId: "booking", vectorDatabase: "faq" } },
      lines: { main: { agent: "desk", number: "+15550001111", link: { connection: "twilio" } } },
    });
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^fleet\.agents\.desk\.promptId: no prompt named "booking"/),
        expect.stringMatching(/^fleet\.agents\.desk\.vectorDatabase: no vector database named "faq"/),
        expect.stringMatching(/^fleet\.lines\.main\.link\.connection: no account connection named "twilio"/),
      ]),
    );
  });
});
