// A clinic on the current API (2024) through the real CLI, from a project outside the repository
// with the packed provider (the dynamic entry): up (saying what destroy cannot undo), `voiceagent
// drift` (a refreshing preview, planning nothing) clean, a prompt change in place and a voice type change in one up, hand edits
// named by `voiceagent drift` (and nothing else left to do after that up), and destroy, which says what
// it cannot unbind on this API and leaves it bound; the vendor key the program gives as a plain
// string reaches the service and appears nowhere else. A number of the clinic's own Twilio account
// is linked (LinkedNumber): its agent changed by hand is seen, destroy leaves it linked and says so,
// and the Twilio credentials the service embeds in the number appear nowhere in output or state. The
// clinic has a Spanish reception agent with every current-API agent field set (issue 35): a hand
// edit of three of them is seen too. examples/basic on this API is not run again here: its kinds
// are the clinic's, through the same CLI, and its voice (voice_azure with pitch and rate) is
// test/kinds/outputs-agree.test.ts's row on 2024 (created, read, updated and read with no drift);
// test/e2e/basic-example.test.ts runs the example itself.
// The current API's own kinds and their adoption by id: current-kinds.test.ts; `voiceagent pull`
// of an account holding every kind: current-pull.test.ts (the same project, sharing its install).
import { describe, expect, it } from "vitest";
import { AuditReportSchema } from "../../provider/cli/audit.js";
import { DriftReportSchema } from "../../provider/cli/drift-report.js";
import { backendFilesHolding, made, upSaying, useClinicProject, voiceagentCli } from "./clinic-project.js";

/** The ElevenLabs key the clinic's program sets as a plain string (test/e2e/fixtures/clinic). */
const VENDOR_KEY = "el-clinic-key-5f0c9e1d";
/** The auth token of the clinic's Twilio account connection, made outside the program. */
const TWILIO_AUTH = "twilio-auth-3b9d1c7e";

// The service answers as a hosted API does (issue 40): credentials masked (`****` and the last 4),
// optional fields left out answered as null, beside its defaults; what reached it is read from the
// emulator's store. The program runs transpiled, not type-checked (a cold type-check is ~6 CPU s):
// the repository's own tsc checks it (test/e2e/fixtures/clinic).
const ctx = useClinicProject("clinic-2024", {
  serviceDefaults: true,
  answers: { credentials: "masked", unsetAsNull: true },
  env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
});
/** The key the service keeps for a voice (its answers mask it). */
const keptKey = (id: string) =>
  ctx.emu.store.get<{ api_key?: string }>("voice", ctx.emu.store.userFor(ctx.token).userId, id)?.api_key;

describe("a clinic on the current API (dynamic entry)", () => {
  it("up, the drift check clean, a prompt and a voice type changed in place, hand edits seen by the drift check, destroy", async () => {
    const { c, client } = ctx;
    // The clinic's Twilio account connection, and the Spanish agent's prompt object, vector
    // database and OpenAI connection, made on the service (not by this program).
    const promptId = await made(ctx, "prompts", { content: "Eres la recepción de la clínica. Das y cambias citas." });
    const ids = {
      "clinic:twilioConnection": await made(ctx, "account_connections", {
        type: "account_connection_twilio",
        credentials: { twilio_account_sid: "AC-clinic-0001", twilio_auth_token: TWILIO_AUTH },
      }),
      "clinic:spanishPromptId": promptId,
      "clinic:spanishVectorDatabase": await made(ctx, "vector_databases", {
        type: "vector_database_pinecone",
        index: "clinica",
        api_key: "pc-clinic-key",
        api_environment: "us-east-1",
      }),
      "clinic:spanishOpenai": await made(ctx, "account_connections", {
        type: "account_connection_openai",
        credentials: { openai_api_key: "sk-clinic-key" },
      }),
    };
    // The first up says what this API cannot undo, before any destroy: each kind's check tells it, at
    // a preview as here (test/kinds/current-api.test.ts and linked-number.test.ts: the notes at check).
    const first = await upSaying(
      ctx,
      Object.entries(ids).flatMap(([k, v]) => ["--config", `${k}=${v}`]),
    );
    expect(first.changes).toEqual({ create: 11 });
    expect(first.said).toMatch(/2024 API cannot unbind a number/);
    expect(first.said).toMatch(/LinkedNumber: the service has no unlink .* leaves the number linked/);
    // The state, read once: the stack's outputs, and (below) every id the stack manages.
    const state = await c.pulumi(["stack", "export"]);
    const resources: { type: string; id?: string; outputs?: Record<string, unknown> }[] = JSON.parse(state.stdout)
      .deployment.resources;
    const out = resources.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs ?? {};
    const spanish = (await client.agents.list.all()).find((a) => a.name === "Recepción");
    expect(spanish).toMatchObject({ language: "es", prompt_id: promptId, llm_temperature: 0.3, idle_time_seconds: 20 });
    const spanishId = String(spanish?.id);
    const front = String(out.frontId);
    expect((await client.agents.get(front)).prompt).toBe("You are the clinic's front desk. Book and move visits.");
    expect((await client.numbers.get("+15550010002")).inbound_agent?.id).toBe(out.nurseId);
    expect((await client.numbers.get("+16465550100")).inbound_agent?.id).toBe(out.nurseId);

    // The key reached the service (so the checks below are not vacuous), and nothing shows it.
    expect(keptKey(String(out.calmId))).toBe(VENDOR_KEY);
    expect((await client.voices.get(String(out.calmId))).api_key).toBe(`****${VENDOR_KEY.slice(-4)}`);
    // The first up's events, but for the Node.js SDK's debug messages: its "RegisterResource RPC
    // finished ... resp: ..." prints each resource's outputs as the engine returned them, secrets in
    // plain text, and `up --json` streams every event, debug ones too (docs/safety.md).
    const events = first.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .filter(
        (l) => (JSON.parse(l) as { diagnosticEvent?: { severity?: string } }).diagnosticEvent?.severity !== "debug",
      );
    expect(events.length).toBeGreaterThan(11);
    const shown = [state.stdout, ...events, first.stderr];

    // The emulator answers with the service's defaults (an agent's ivr_navigation_mode, a number's
    // outbound_only) for the fields the program leaves out: right after the deploy, nobody has
    // changed anything, so the pipeline's checks find nothing of the stack's (issue 48); nor does the
    // masked vendor key look changed. The drift check's refreshing preview planning nothing is also
    // the no-change preview after the first up (a plain one would only repeat it).
    // (This test's time limit is for a loaded machine: each `voiceagent drift` runs a refreshing preview.)
    const clean = await voiceagentCli(ctx, ["drift", "--stack", "dev", "--json"]);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(DriftReportSchema.parse(JSON.parse(clean.stdout))).toMatchObject({ clean: true, drifted: [], planned: [] });
    expect((await client.agents.get(front)).ivr_navigation_mode).toBe("default");
    const audit = await voiceagentCli(ctx, ["audit", "--stack", "dev", "--json"]);
    const managed = new Set(
      resources.flatMap((r) => [r.id, r.outputs?.numberId].filter((v): v is string => typeof v === "string")),
    );
    const findings = AuditReportSchema.parse(JSON.parse(audit.stdout)).findings;
    // The objects made outside the program (the seeded ones, the connections) are unmanaged; none of the stack's is named.
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => f.finding !== "unmanaged" || managed.has(f.id))).toEqual([]);

    // The prompt and the voice's type changed in one up: each an update in place.
    const changed = [
      "--config",
      "clinic:frontPrompt=You are the clinic's front desk. Book, move and cancel visits.",
      "--config",
      "clinic:calmVoice=rime",
    ];
    expect(await c.up(changed)).toEqual({ update: 2, same: 9 });
    expect((await client.agents.get(front)).prompt).toBe(
      "You are the clinic's front desk. Book, move and cancel visits.",
    );
    expect(await client.voices.get(String(out.calmId))).toMatchObject({ type: "voice_rime", speaker: "river" });

    // Hand edits after that up, on the service: the defaulted fields; the front desk's prompt; the
    // linked number handed to the front desk; three of the Spanish agent's current-API fields. One
    // drift check (a refreshing preview) names each edited field with both values, and `up` would
    // update those three resources for the fields edited and nothing else: the update in place left
    // nothing to do (the voice of the new type, the front desk's other fields).
    await client.agents.update(front, { ivr_navigation_mode: "off" });
    await client.linkedNumbers.update("+16465550100", { outbound_only: true });
    await client.agents.update(front, { prompt: "Edited by hand." });
    await client.numbers.update("+16465550100", front);
    await client.agents.update(spanishId, { language: "pt", interrupt_sensitivity: "low", idle_time_seconds: 45 });
    const edited = await voiceagentCli(ctx, ["drift", "--stack", "dev"]);
    expect(edited.code, edited.stdout + edited.stderr).toBe(3);
    expect(edited.stdout).toMatch(/^3 resource\(s\) changed outside Pulumi/m);
    expect(edited.stdout).toMatch(/^ {2}Agent front-desk: ivrNavigationMode: "default" → "off"$/m);
    expect(edited.stdout).toMatch(/^ {2}LinkedNumber own-line: outboundOnly: false → true$/m);
    expect(edited.stdout).toMatch(/^ {2}Agent recepcion: language: "es" → "pt"$/m);
    expect(edited.stdout).toMatch(/^ {2}Agent recepcion: interruptSensitivity: "high" → "low"$/m);
    expect(edited.stdout).toMatch(/^ {2}Agent recepcion: idleTimeSeconds: 20 → 45$/m);
    const planned = new Map(
      [...edited.stdout.matchAll(/^update +(\w+) +(\S+) +(.*)$/gm)].map((m) => [
        `${m[1]} ${m[2]}`,
        (m[3] ?? "").trim().split(", ").sort(),
      ]),
    );
    expect([...planned.keys()].sort()).toEqual(["Agent front-desk", "Agent recepcion", "LinkedNumber own-line"]);
    const edits: Record<string, { must: string[]; may: string[] }> = {
      "Agent front-desk": { must: ["prompt"], may: ["ivrNavigationMode"] },
      "LinkedNumber own-line": { must: ["inboundAgent"], may: ["outboundOnly"] },
      "Agent recepcion": { must: ["idleTimeSeconds", "interruptSensitivity", "language"], may: [] },
    };
    for (const [name, { must, may }] of Object.entries(edits)) {
      const props = planned.get(name) ?? [];
      expect(props, name).toEqual(expect.arrayContaining(must));
      expect(
        props.filter((p) => !must.includes(p) && !may.includes(p)),
        name,
      ).toEqual([]);
    }

    // The checkpoints of every update (the backend's history and backups) are read below from its files.
    const destroy = await c.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(destroy.stdout + destroy.stderr).toMatch(/left bound to its agent and removed from the stack/);
    expect(destroy.stdout + destroy.stderr).toMatch(
      /voiceagent:LinkedNumber [0-9a-f-]{36}: .*leaves the number linked/,
    );
    shown.push(edited.stdout, edited.stderr, destroy.stdout, destroy.stderr);
    expect(shown.join("\n").includes(VENDOR_KEY), "CLI output holds the vendor key").toBe(false);
    expect(backendFilesHolding(c.dir, VENDOR_KEY)).toEqual([]);
    // The full number the service answers embeds its Twilio connection, auth token and all.
    expect(shown.join("\n").includes(TWILIO_AUTH), "CLI output holds the Twilio auth token").toBe(false);
    expect(backendFilesHolding(c.dir, TWILIO_AUTH)).toEqual([]);
    // Still linked, and answered by the agent the hand edit gave it (the drift check changed nothing).
    expect((await client.numbers.get("+16465550100")).inbound_agent?.id).toBe(front);
    // Both bindings stay (this API cannot remove them); the bought number is cancelled.
    expect((await client.numbers.get("+15550010001")).inbound_agent?.id).toBe(front);
    expect((await client.numbers.get(String(out.afterHoursNumber))).active).toBe(false);
    expect(await c.pulumi(["stack", "ls", "--json"]).then((r) => r.stdout)).toMatch(/"resourceCount": 0/);
  }, 900_000);
});
