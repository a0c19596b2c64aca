// The current API's own kinds (docs/current-kinds.md) through the real CLI, from the clinic project
// outside the repository (the packed provider, the dynamic entry; its install shared with
// current-api.test.ts and current-pull.test.ts): a prompt, a vector database, an OpenAI and a Twilio
// account connection declared with their credentials as plain strings, and, beside them, one object
// of each new kind made in the dashboard and adopted by id (a prompt by promptId, a vector database
// by vectorDatabaseId, an OpenAI and a Twilio connection by accountConnectionId, a number already
// linked through that Twilio connection taken over by a LinkedNumber). Then a Voice left at its
// default type with voiceagent:api at auto, refused at preview. The service answers as a hosted API
// does (issue 40): every credential masked (`****` and its last 4) and every optional field left
// out answered as null, so what reached the service is read from the emulator's store. Beside them
// the service's other action types (issue 50): an external action with a signature secret and a
// nested input schema, a transfer set off by a phrase, and a hold.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATION_PROBE, routesSince } from "../helpers/generation-probe.js";
import { backendFilesHolding, made, useClinicProject } from "./clinic-project.js";

// The programs run transpiled, not type-checked (a cold type-check is ~6 CPU s per program): what
// this file proves is what the service and the CLI see; each kind's public types are checked by
// test/codegen/examples.test.ts (its example compiled against the package) and test/codegen.
const ctx = useClinicProject("current-kinds", {
  answers: { credentials: "masked", unsetAsNull: true },
  env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
});

/**
 * The top-level properties the diff of `pulumi up --diff` (a preview's, from the same steps) shows
 * changed (~, + or -) in the update of the resource named `name`: the lines of its block indented as
 * its first property (the block ends at the first line indented less: the next resource's header,
 * the stack's outputs or the summary).
 */
function changedProperties(diff: string, name: string): string[] {
  const lines = diff.split("\n");
  const indent = (l: string) => l.length - l.trimStart().length;
  const at = lines.findIndex(
    (l, i) =>
      l.trimStart().startsWith("[urn=") &&
      l.trimEnd().endsWith(`::${name}]`) &&
      /: \(update\)\s*$/.test(lines[i - 2] ?? ""),
  );
  if (at < 0) return [];
  const property = /^\s*[~+-] "?([\w-]+)"?\s*:/;
  const block = lines.slice(at + 1);
  const top = indent(block.find((l) => property.test(l)) ?? "");
  const props: string[] = [];
  for (const line of block) {
    if (line.trim() === "") continue;
    if (indent(line) < top) break;
    const m = property.exec(line);
    if (m && indent(line) === top) props.push(m[1] ?? "");
  }
  return props;
}

type Stored = { api_key?: string; credentials?: Record<string, string>; config?: Record<string, unknown> };
/** An object as the service keeps it (its answers mask the credentials). */
const kept = (table: "vector_database" | "account_connection" | "action", id: string): Stored =>
  ctx.emu.store.get<Stored>(table, ctx.emu.store.userFor(ctx.token).userId, id) ?? {};

describe("the current API's kinds on the dynamic entry", () => {
  // The user's credentials as plain strings: a prompt adopted by id, a vector database, an OpenAI
  // and a Twilio connection with a steering pool, made by the program; and a vector database, an
  // OpenAI and a Twilio connection and a linked number made in the dashboard (each with the
  // dashboard's own credentials), adopted by id. `up` makes only the program's three objects on
  // the service. A hand edit of the prompt, of the pool and of each adopted object but a key
  // (write-only: not seen) is seen by a refreshing up, whose diff shows nothing else (the masked
  // answers cause no false drift), and put back by it; destroy forgets every object, saying so, and
  // leaves the number linked. No credential, the program's, the dashboard's or the one set by hand,
  // appears in the CLI's output or the backend's files (every checkpoint, its history and backups).
  it(`made and adopted by id: up creates only the program's objects, hand edits and nothing else seen by up --refresh, \
destroy forgets, secrets nowhere`, async () => {
    const { c, client, emu } = ctx;
    const keys = { pinecone: "pc-own-key-3b9d2f1a", openai: "sk-own-key-8c1e4a7b", twilio: "tw-own-token-6f2a9c3d" };
    // What the program gives the objects it adopts, what the dashboard made them with, and the OpenAI key set by hand.
    const adoptedKeys = {
      pinecone: "pc-adopt-key-7e41c0d2",
      openai: "sk-adopt-key-2d9f6b13",
      twilio: "tw-adopt-token-5a8e3f70",
    };
    const dashboardKeys = {
      pinecone: "pc-dash-key-91b7e2a4",
      openai: "sk-dash-key-c3f05d86",
      twilio: "tw-dash-tok-48d1a9e5",
    };
    const handKey = "sk-hand-key-6b2e8f31";
    // The external action's signature secret, a plain string in the program (issue 50).
    const signature = "sig-own-secret-0a7c5e93";
    const seeds = emu.seeds.get(ctx.token);
    const [first, second] = seeds?.numbers ?? [];
    const voice = seeds?.voices[0];
    if (!first || !second || !voice) throw new Error("the emulator seeded too few numbers or voices");
    // The dashboard's objects.
    const adopted = await client.prompts.create({ content: "Made in the dashboard." });
    const manualsId = await made(ctx, "vector_databases", {
      type: "vector_database_pinecone",
      index: "dashboard-index",
      api_key: dashboardKeys.pinecone,
      api_environment: "us-east-1",
    });
    const ownOpenaiId = await made(ctx, "account_connections", {
      type: "account_connection_openai",
      credentials: { openai_api_key: dashboardKeys.openai },
    });
    const ownTwilioId = await made(ctx, "account_connections", {
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: "AC0456", twilio_auth_token: dashboardKeys.twilio },
    });
    const desk = await client.agents.create({ prompt: "You answer the own line.", voice });
    const other = await client.agents.create({ prompt: "You take the own line's overflow.", voice });
    const ownLine = "+16465550177";
    await client.linkedNumbers.link({
      phone_number: ownLine,
      telephony_account_connection: ownTwilioId,
      inbound_agent: other.id,
    });
    writeFileSync(
      path.join(c.dir, "index.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import * as va from "pulumi-voiceagent";',
        "const config = new pulumi.Config();",
        'const booking = new va.Prompt("booking", { content: "You book visits.", ' +
          'collectFields: [{ name: "email", label: "Email address" }], promptId: config.require("promptId") });',
        `const faq = new va.VectorDatabase("faq", { index: "clinic-faq", ` +
          `apiKey: "${keys.pinecone}", apiEnvironment: "us-east-1-aws" });`,
        `const openai = new va.AccountConnection("openai", { type: "account_connection_openai", ` +
          `openaiApiKey: "${keys.openai}" });`,
        `const twilio = new va.AccountConnection("twilio", { type: "account_connection_twilio", ` +
          `twilioAccountSid: "AC0123", twilioAuthToken: "${keys.twilio}", steeringPool: ["${first}", "${second}"] });`,
        `const manuals = new va.VectorDatabase("manuals", { vectorDatabaseId: config.require("manualsId"), ` +
          `index: "clinic-manuals", apiKey: "${adoptedKeys.pinecone}", apiEnvironment: "us-west-2-aws" });`,
        `const ownOpenai = new va.AccountConnection("own-openai", { accountConnectionId: config.require("ownOpenaiId"), ` +
          `type: "account_connection_openai", openaiApiKey: "${adoptedKeys.openai}" });`,
        `const ownTwilio = new va.AccountConnection("own-twilio", { accountConnectionId: config.require("ownTwilioId"), ` +
          `type: "account_connection_twilio", twilioAccountSid: "AC0456", twilioAuthToken: "${adoptedKeys.twilio}" });`,
        `const line = new va.LinkedNumber("own-line", { number: "${ownLine}", ` +
          `telephonyAccountConnection: ownTwilio.id, inboundAgent: config.require("deskAgent") });`,
        // The team's API the agent calls (a nested input schema), a transfer on a phrase, a hold (issue 50).
        `const lookup = new va.Action("lookup", { type: "action_external", signatureSecret: "${signature}", config: { ` +
          'name: "lookup_patient", description: "Finds a patient by date of birth.", url: "https://api.clinic.example/patients", ' +
          'inputSchema: { type: "object", properties: { dob: { type: "string" }, ' +
          'name: { type: "object", properties: { last: { type: "string" } } } } }, ' +
          "speakOnSend: true, speakOnReceive: false } });",
        'const transfer = new va.Action("transfer", { type: "action_transfer_call", config: { phoneNumber: "+15550100700" }, ' +
          'actionTrigger: { type: "action_trigger_phrase_based", phraseTriggers: [{ phrase: "talk to a human" }] } });',
        'const hold = new va.Action("hold", { type: "action_set_hold", actionTrigger: { type: "action_trigger_phrase_based", ' +
          'phraseTriggers: [{ phrase: "please hold" }] } });',
        "export const ids = { booking: booking.id, faq: faq.id, openai: openai.id, twilio: twilio.id, " +
          "manuals: manuals.id, ownOpenai: ownOpenai.id, ownTwilio: ownTwilio.id, line: line.numberId, " +
          "lookup: lookup.id, transfer: transfer.id, hold: hold.id };",
        "",
      ].join("\n"),
    );
    const settings = {
      "clinic:promptId": adopted.id,
      "clinic:manualsId": manualsId,
      "clinic:ownOpenaiId": ownOpenaiId,
      "clinic:ownTwilioId": ownTwilioId,
      "clinic:deskAgent": desk.id,
    };
    const beforeUp = { ...emu.stats.byRoute };
    // The settings given to up itself (it saves them in the stack's config): no separate command.
    expect(await c.up(Object.entries(settings).flatMap(([k, v]) => ["--config", `${k}=${v}`]))).toEqual({ create: 12 });
    // On the service, up made the program's three objects and nothing else: no prompt, vector
    // database, account connection or link for the adopted ones.
    const creates = Object.entries(routesSince(emu.stats.byRoute, beforeUp)).filter(([route]) =>
      /^POST \/v1\/\w+\/(create|buy|link)$/.test(route),
    );
    expect(Object.fromEntries(creates)).toEqual({
      "POST /v1/vector_databases/create": 1,
      "POST /v1/account_connections/create": 2,
      "POST /v1/actions/create": 3,
    });
    const ids = (await c.outputs()).ids as Record<string, string>;
    const linked = await client.linkedNumbers.get(ownLine);
    expect(ids).toMatchObject({
      booking: adopted.id,
      manuals: manualsId,
      ownOpenai: ownOpenaiId,
      ownTwilio: ownTwilioId,
    });
    expect(ids.line).toBe(linked.id);
    // Each adopted object took the program's values.
    expect((await client.prompts.get(adopted.id)).content).toBe("You book visits.");
    expect(await client.vector_databases.get(manualsId)).toMatchObject({
      index: "clinic-manuals",
      api_key: `****${adoptedKeys.pinecone.slice(-4)}`,
      api_environment: "us-west-2-aws",
    });
    expect(kept("vector_database", manualsId).api_key).toBe(adoptedKeys.pinecone);
    expect(kept("account_connection", ownOpenaiId).credentials?.openai_api_key).toBe(adoptedKeys.openai);
    expect(kept("account_connection", ownTwilioId).credentials?.twilio_auth_token).toBe(adoptedKeys.twilio);
    expect(linked).toMatchObject({ telephony_account_connection: ownTwilioId, inbound_agent: desk.id });
    // The credentials reached the service (so the greps below are not vacuous).
    expect(kept("vector_database", String(ids.faq)).api_key).toBe(keys.pinecone);
    const twilio = await client.account_connections.get(String(ids.twilio));
    expect(twilio).toMatchObject({
      credentials: { twilio_auth_token: `****${keys.twilio.slice(-4)}` },
      steering_pool: [first, second],
    });
    expect(kept("account_connection", String(ids.twilio)).credentials?.twilio_auth_token).toBe(keys.twilio);

    // Hand edits on the service: the prompt's text, a number taken out of the pool, and each
    // adopted object: the vector database's index, the OpenAI connection's key, the linked number's
    // agent. The key is write-only (its answer masked): a key changed outside Pulumi is not seen.
    await client.prompts.update(adopted.id, { content: "Edited by hand." });
    await client.account_connections.removeFromSteeringPool(String(ids.twilio), second);
    await client.vector_databases.update(manualsId, { index: "edited-by-hand" });
    await client.account_connections.update(ownOpenaiId, {
      type: "account_connection_openai",
      credentials: { openai_api_key: handKey },
    });
    await client.linkedNumbers.update(ownLine, { inbound_agent: other.id });
    // The transfer's phrase and the external action's URL, edited in the dashboard.
    await client.actions.update(String(ids.transfer), {
      type: "action_transfer_call",
      config: { phone_number: "+15550100700" },
      action_trigger: {
        type: "action_trigger_phrase_based",
        config: { phrase_triggers: [{ phrase: "operator", conditions: ["phrase_condition_type_contains"] }] },
      },
    });
    const external = kept("action", String(ids.lookup)).config ?? {};
    await client.actions.update(String(ids.lookup), {
      type: "action_external",
      config: { ...external, url: "https://elsewhere.example/patients" },
    });
    // A refreshing up sees them and puts them all back: its diff (the one a refreshing preview shows,
    // from the same steps) names exactly the edited objects, each for exactly the property edited: a
    // masking service (every credential answered `****` and its last 4, unset fields null) causes no
    // false drift, in the six objects left alone (the unchanged ones) as in the edited ones.
    const refreshed = await c.pulumi(["up", "--yes", "--refresh", "--skip-preview", "--diff"]);
    if (process.env.VOICEAGENT_SHOW_RUNS) process.stderr.write(`${refreshed.stdout}\n`);
    expect(refreshed.stdout).toMatch(/~ 6 updated\n\s+6 unchanged/);
    expect(
      Object.fromEntries(
        ["booking", "twilio", "manuals", "own-line", "transfer", "lookup"].map((name) => [
          name,
          changedProperties(refreshed.stdout, name),
        ]),
      ),
    ).toEqual({
      booking: ["content"],
      twilio: ["steeringPool"],
      manuals: ["index"],
      "own-line": ["inboundAgent"],
      transfer: ["actionTrigger"],
      lookup: ["config"],
    });
    expect((await client.prompts.get(adopted.id)).content).toBe("You book visits.");
    expect((await client.account_connections.get(String(ids.twilio))).steering_pool).toEqual([first, second]);
    expect((await client.vector_databases.get(manualsId)).index).toBe("clinic-manuals");
    expect(kept("account_connection", ownOpenaiId).credentials?.openai_api_key).toBe(handKey);
    expect((await client.linkedNumbers.get(ownLine)).inbound_agent).toBe(desk.id);
    const transferBack = await client.actions.get(String(ids.transfer));
    expect(transferBack.action_trigger?.config?.phrase_triggers?.map((p) => p.phrase)).toEqual(["talk to a human"]);
    expect(kept("action", String(ids.lookup)).config).toMatchObject({
      url: "https://api.clinic.example/patients",
      signature_secret: signature,
      input_schema: { properties: { name: { properties: { last: { type: "string" } } } } },
    });

    // Every checkpoint (the backend's history and backups) is read below from the backend's files.
    const destroy = await c.pulumi(["destroy", "--yes", "--skip-preview"]);
    const said = destroy.stdout + destroy.stderr;
    // Destroy forgets each object (the service has no delete), saying so, and leaves them as they are.
    for (const [kind, id, what] of [
      ["Prompt", adopted.id, "prompts"],
      ["VectorDatabase", manualsId, "vector databases"],
      ["AccountConnection", ownOpenaiId, "account connections"],
      ["AccountConnection", ownTwilioId, "account connections"],
    ])
      expect(said, `${kind} ${id}`).toMatch(
        new RegExp(`voiceagent:${kind} ${id}: .*no delete for ${what}.*left on the service`),
      );
    expect(said).toMatch(new RegExp(`voiceagent:LinkedNumber ${linked.id}: .*leaves the number linked`));
    expect((await client.prompts.get(adopted.id)).content).toBe("You book visits.");
    expect((await client.vector_databases.get(manualsId)).index).toBe("clinic-manuals");
    expect((await client.account_connections.get(ownOpenaiId)).type).toBe("account_connection_openai");
    expect(await client.linkedNumbers.get(ownLine)).toMatchObject({
      telephony_account_connection: ownTwilioId,
      inbound_agent: desk.id,
    });
    expect(await c.pulumi(["stack", "ls", "--json"]).then((r) => r.stdout)).toMatch(/"resourceCount": 0/);
    const shown = [refreshed, destroy].flatMap((r) => [r.stdout, r.stderr]).join("\n");
    for (const key of [
      ...Object.values(keys),
      ...Object.values(adoptedKeys),
      ...Object.values(dashboardKeys),
      handKey,
      signature,
    ]) {
      expect(shown.includes(key), `CLI output holds ${key}`).toBe(false);
      expect(backendFilesHolding(c.dir, key), key).toEqual([]);
    }
  }, 420_000);

  // voiceagent:api left at auto (the default), as a new user leaves it: a Voice left at its default
  // type (the interface's voice_base) fails at preview, naming `type`, whether or not the provider
  // read something first (a refresh); before 0.4.1 it passed a plain preview and failed at up.
  it("a default-typed Voice with voiceagent:api auto fails at preview naming type, with or without a refresh first", async () => {
    const { c, client, emu } = ctx;
    writeFileSync(
      path.join(c.dir, "index.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import * as va from "pulumi-voiceagent";',
        "const config = new pulumi.Config();",
        'new va.Agent("desk", { prompt: "You answer the phone.", voice: config.require("voice") });',
        'if (config.getBoolean("plainVoice")) new va.Voice("plain", { voiceName: "alloy", pitch: 0, rate: 1 });',
        "",
      ].join("\n"),
    );
    await c.pulumi(["stack", "init", "auto"]);
    await c.config({
      "voiceagent:baseUrl": emu.url,
      "voiceagent:token": { value: ctx.token, secret: true },
      "clinic:voice": String(emu.seeds.get(ctx.token)?.voices[0]),
    });
    expect(await c.up()).toMatchObject({ create: 2 });
    const previewOf = async (args: string[]) => {
      const before = { ...emu.stats.byRoute };
      // The Voice added by config given to the preview itself (no separate command to set it).
      const r = await c.pulumi(["preview", "--config", "clinic:plainVoice=true", ...args], { check: false });
      return { code: r.code, text: r.stdout + r.stderr, sent: routesSince(emu.stats.byRoute, before) };
    };
    const plain = await previewOf([]);
    const refreshed = await previewOf(["--refresh"]);
    const said =
      /type: voice_base \(the type when none is set\) does not exist on the 2024 API: set type to one of voice_azure/;
    for (const p of [plain, refreshed]) {
      expect(p.code).not.toBe(0);
      expect(p.text).toMatch(said);
      expect(p.text).toMatch(/'plain' has a problem/);
    }
    // No write: the plain preview read the generation once; the refreshing one read the agent too.
    expect(plain.sent).toEqual({ [GENERATION_PROBE]: 1 });
    expect(Object.keys(refreshed.sent).filter((route) => !route.startsWith("GET "))).toEqual([]);
    // The probe, and the refresh's read of the agent: one page of the agent list (reads in pages).
    expect(refreshed.sent[GENERATION_PROBE]).toBe(2);
    expect((await client.voices.list.all()).some((v) => v.voice_name === "alloy")).toBe(false);
  }, 180_000);
});
