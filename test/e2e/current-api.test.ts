// A clinic on the current API (2024) through the real CLI, from a project outside the repository
// with the packed provider (the dynamic entry): up, a no-change preview, a hand edit seen by
// `preview --refresh`, a prompt change in place, a voice type change, and destroy, which says what
// it cannot unbind on this API and leaves it bound; the vendor key the program gives as a plain
// string reaches the service and appears nowhere else. A number of the clinic's own Twilio account
// is linked (LinkedNumber): its agent changed by hand is seen, destroy leaves it linked and says so,
// and the Twilio credentials the service embeds in the number appear nowhere in output or state. Then examples/basic's program, as a second
// stack of the same project (sharing its install), on the same API. The clinic has a Spanish reception
// agent with every current-API agent field set (issue 35): a hand edit of three of them is seen too.
// The current API's own kinds and their adoption by id: current-kinds.test.ts; `voiceagent pull`
// of an account holding every kind: current-pull.test.ts (the same project, sharing its install).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/consumer.js";
import { AuditReportSchema } from "../../provider/cli/audit.js";
import { DriftReportSchema } from "../../provider/cli/drift-report.js";
import { backendFilesHolding, made, useClinicProject, voiceagentCli } from "./clinic-project.js";

/** The ElevenLabs key the clinic's program sets as a plain string (test/e2e/fixtures/clinic). */
const VENDOR_KEY = "el-clinic-key-5f0c9e1d";
/** The auth token of the clinic's Twilio account connection, made outside the program. */
const TWILIO_AUTH = "twilio-auth-3b9d1c7e";

// The service answers as a hosted API does (issue 40): credentials masked (`****` and the last 4),
// optional fields left out answered as null, beside its defaults; what reached it is read from the
// emulator's store.
const ctx = useClinicProject("clinic-2024", {
  serviceDefaults: true,
  answers: { credentials: "masked", unsetAsNull: true },
});
/** The key the service keeps for a voice (its answers mask it). */
const keptKey = (id: string) =>
  ctx.emu.store.get<{ api_key?: string }>("voice", ctx.emu.store.userFor(ctx.token).userId, id)?.api_key;

describe("a clinic on the current API (dynamic entry)", () => {
  it("up, preview, a hand edit seen by preview --refresh, a prompt and a voice type changed in place, destroy", async () => {
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
    await c.pulumi(["config", "set-all", ...Object.entries(ids).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`])]);
    expect(await c.up()).toEqual({ create: 11 });
    const out = await c.outputs();
    const spanish = (await client.agents.list.all()).find((a) => a.name === "Recepción");
    expect(spanish).toMatchObject({ language: "es", prompt_id: promptId, llm_temperature: 0.3, idle_time_seconds: 20 });
    const spanishId = String(spanish?.id);
    const front = String(out.frontId);
    expect((await client.agents.get(front)).prompt).toBe("You are the clinic's front desk. Book and move visits.");
    expect((await client.numbers.get("+15550010002")).inbound_agent?.id).toBe(out.nurseId);
    expect((await client.numbers.get("+16465550100")).inbound_agent?.id).toBe(out.nurseId);

    // Nothing to do; and the preview says, before any destroy, what this API cannot undo.
    const preview = await c.pulumi(["preview", "--expect-no-changes", "--diff"]);
    expect(preview.stdout + preview.stderr).toMatch(/2024 API cannot unbind a number/);
    expect(preview.stdout + preview.stderr).toMatch(
      /LinkedNumber: the service has no unlink .* leaves the number linked/,
    );
    // The key reached the service (so the checks below are not vacuous), and nothing shows it.
    expect(keptKey(String(out.calmId))).toBe(VENDOR_KEY);
    expect((await client.voices.get(String(out.calmId))).api_key).toBe(`****${VENDOR_KEY.slice(-4)}`);
    const shown = [preview.stdout, preview.stderr];

    // The emulator answers with the service's defaults (an agent's ivr_navigation_mode, a number's
    // outbound_only) for the fields the program leaves out: right after the deploy, nobody has
    // changed anything, so the pipeline's checks find nothing of the stack's (issue 48).
    // (This test's time limit is for a loaded machine: each `voiceagent drift` runs a refreshing preview.)
    const clean = await voiceagentCli(ctx, ["drift", "--stack", "dev", "--json"]);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(DriftReportSchema.parse(JSON.parse(clean.stdout))).toMatchObject({ clean: true, drifted: [] });
    expect((await client.agents.get(front)).ivr_navigation_mode).toBe("default");
    const audit = await voiceagentCli(ctx, ["audit", "--stack", "dev", "--json"]);
    const managed = new Set(
      JSON.parse((await c.pulumi(["stack", "export"])).stdout).deployment.resources.flatMap(
        (r: { id?: string; outputs?: Record<string, unknown> }) =>
          [r.id, r.outputs?.numberId].filter((v): v is string => typeof v === "string"),
      ),
    );
    const findings = AuditReportSchema.parse(JSON.parse(audit.stdout)).findings;
    // The objects made outside the program (the seeded ones, the connections) are unmanaged; none of the stack's is named.
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => f.finding !== "unmanaged" || managed.has(f.id))).toEqual([]);
    // A hand edit of those same fields afterwards is drift, named with both values.
    await client.agents.update(front, { ivr_navigation_mode: "off" });
    await client.linkedNumbers.update("+16465550100", { outbound_only: true });
    const edited = await voiceagentCli(ctx, ["drift", "--stack", "dev"]);
    expect(edited.code, edited.stdout + edited.stderr).toBe(3);
    expect(edited.stdout).toMatch(/^ {2}Agent front-desk: ivrNavigationMode: "default" → "off"$/m);
    expect(edited.stdout).toMatch(/^ {2}LinkedNumber own-line: outboundOnly: false → true$/m);
    await client.agents.update(front, { ivr_navigation_mode: "default" });
    await client.linkedNumbers.update("+16465550100", { outbound_only: false });

    // Someone edits the front desk's prompt, hands the linked number to the front desk, and edits
    // three of the Spanish agent's current-API fields, on the service: a refreshing preview shows
    // all three resources to update, naming the Spanish agent's fields.
    await client.agents.update(front, { prompt: "Edited by hand." });
    await client.numbers.update("+16465550100", front);
    await client.agents.update(spanishId, { language: "pt", interrupt_sensitivity: "low", idle_time_seconds: 45 });
    const refreshed = await c.pulumi(["preview", "--refresh", "--diff"]);
    const recepcion = refreshed.stdout.slice(refreshed.stdout.indexOf("voiceagent:Agent::recepcion"));
    for (const field of ["language", "interruptSensitivity", "idleTimeSeconds"])
      expect(recepcion, field).toMatch(new RegExp(`~ ${field} *: `));
    expect(refreshed.stdout).toMatch(/~ 3 to update/);

    // The prompt and the voice's type changed in one up: each an update in place.
    await c.pulumi([
      "config",
      "set-all",
      "--plaintext",
      "clinic:frontPrompt=You are the clinic's front desk. Book, move and cancel visits.",
      "--plaintext",
      "clinic:calmVoice=rime",
    ]);
    expect(await c.up()).toEqual({ update: 2, same: 9 });
    expect((await client.agents.get(front)).prompt).toBe(
      "You are the clinic's front desk. Book, move and cancel visits.",
    );
    expect(await client.voices.get(String(out.calmId))).toMatchObject({ type: "voice_rime", speaker: "river" });
    expect(await c.preview()).toEqual({ same: 11 });

    const exported = await c.pulumi(["stack", "export"]);
    const destroy = await c.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(destroy.stdout + destroy.stderr).toMatch(/left bound to its agent and removed from the stack/);
    expect(destroy.stdout + destroy.stderr).toMatch(
      /voiceagent:LinkedNumber [0-9a-f-]{36}: .*leaves the number linked/,
    );
    shown.push(exported.stdout, destroy.stdout, destroy.stderr);
    expect(shown.join("\n").includes(VENDOR_KEY), "CLI output holds the vendor key").toBe(false);
    expect(backendFilesHolding(c.dir, VENDOR_KEY)).toEqual([]);
    // The full number the service answers embeds its Twilio connection, auth token and all.
    expect(shown.join("\n").includes(TWILIO_AUTH), "CLI output holds the Twilio auth token").toBe(false);
    expect(backendFilesHolding(c.dir, TWILIO_AUTH)).toEqual([]);
    // Still linked, and answered by the agent the hand edit gave it (the refreshing preview changed nothing).
    expect((await client.numbers.get("+16465550100")).inbound_agent?.id).toBe(front);
    // Both bindings stay (this API cannot remove them); the bought number is cancelled.
    expect((await client.numbers.get("+15550010001")).inbound_agent?.id).toBe(front);
    expect((await client.numbers.get(String(out.afterHoursNumber))).active).toBe(false);
    expect(await c.pulumi(["stack", "ls", "--json"]).then((r) => r.stdout)).toMatch(/"resourceCount": 0/);
  }, 900_000);

  it("examples/basic on the current API: up, an empty preview, destroy", async () => {
    const { c, client } = ctx;
    writeFileSync(path.join(c.dir, "index.ts"), readFileSync(path.join(REPO_ROOT, "examples/basic/index.ts"), "utf8"));
    await c.pulumi(["stack", "init", "basic"]);
    await c.pulumi([
      "config",
      "set-all",
      "--plaintext",
      `voiceagent:baseUrl=${ctx.emu.url}`,
      "--secret",
      `voiceagent:token=${ctx.token}`,
      "--plaintext",
      "voiceagent:api=2024",
      "--plaintext",
      "clinic:number=+15550010003",
    ]);
    expect(await c.up()).toEqual({ create: 4 });
    const out = await c.outputs();
    expect((await client.numbers.get("+15550010003")).inbound_agent?.id).toBe(out.agentId);
    expect(await c.preview()).toEqual({ same: 4 });
    expect(await c.destroy()).toEqual({ delete: 4 });
  }, 180_000);
});
