// The emulator as a team's integration bench (issue 44), through the real CLI: the clinic's program
// (test/e2e/fixtures/clinic, in the project the current-API scenarios share) declares a webhook
// pointing at a receiver this test runs on 127.0.0.1, and binds the main line to its front desk.
// An inbound call to the line delivers its events there, in order, once each; `voiceagent
// test-call` (the packed package's bin) passes against the stack and fails, saying why, once a
// `pulumi up` has bound the line to another agent.
import { describe, expect, it } from "vitest";
import { CallEventSchema } from "pulumi-voiceagent/schemas";
import { changes } from "../helpers/e2e.js";
import { startRecordingServer } from "../helpers/recording-server.js";
import { made, useClinicProject, voiceagentCli } from "./clinic-project.js";

const MAIN = "+15550010001";
const ctx = useClinicProject("bench-2024", {
  calls: { stepMs: 20, webhooks: { timeoutMs: 5000, backoffMs: 50 } },
});

describe("a call to a line a Pulumi program bound delivers its events to the program's webhook", () => {
  it("connected, each line and ended reach the receiver in order, once each; test-call passes, then fails after a rebinding", async () => {
    const { c, emu } = ctx;
    const receiver = await startRecordingServer(() => ({ status: 200 }));
    try {
      await c.config({
        "clinic:twilioConnection": await made(ctx, "account_connections", {
          type: "account_connection_twilio",
          credentials: { twilio_account_sid: "AC-bench-0001", twilio_auth_token: "twilio-auth-bench" },
        }),
        "clinic:hooksUrl": `${receiver.url}/clinic`,
        "clinic:hookEvents": JSON.stringify([
          "event_phone_call_connected",
          "event_transcript",
          "event_phone_call_ended",
        ]),
      });
      const created = await c.up();
      expect(created.create).toBeGreaterThan(0);
      const out = await c.outputs();
      const front = String(out.frontId);
      const nurse = String(out.nurseId);

      // An inbound call placed through the emulator's admin API.
      const res = await fetch(`${emu.url}/admin/calls/inbound`, {
        method: "POST",
        headers: { authorization: `Bearer ${ctx.token}`, "content-type": "application/json" },
        body: JSON.stringify({ to: MAIN, from: "+14155550123", script: ["Can I move my visit?"] }),
      });
      expect(res.status).toBe(200);
      const placed = (await res.json()) as { id: string; agent: string };
      expect(placed.agent).toBe(front);
      await emu.calls?.settle();
      const got = receiver.requests.map((r) => CallEventSchema.parse(JSON.parse(r.body)));
      // Only the events the program's webhook subscribes to (not event_message), in order, once each.
      expect(got.map((e) => (e.type === "event_transcript" ? `${e.sender}: ${e.text}` : e.type))).toEqual([
        "event_phone_call_connected",
        "bot: Hello, you have reached the clinic.",
        "human: Can I move my visit?",
        "event_phone_call_ended",
      ]);
      expect(got.every((e) => e.conversation_id === placed.id)).toBe(true);
      expect(receiver.requests.every((r) => r.path === "/clinic" && r.method === "POST")).toBe(true);

      // The smoke command of docs/pipelines.md, credentials from the stack's config.
      const pass = await voiceagentCli(ctx, ["test-call", "--stack", "dev", "--to", MAIN, "--agent", front]);
      expect(pass.stderr).toBe("");
      expect(pass.stdout).toContain("ok:");
      expect(pass.code).toBe(0);

      // A rebinding by `pulumi up` changes which agent answers the next call.
      await c.config({ "clinic:mainAgent": "nurse" });
      expect(changes(await c.up())).toEqual({ update: 1 });
      const wrong = await voiceagentCli(ctx, ["test-call", "--stack", "dev", "--to", MAIN, "--agent", front, "--json"]);
      expect(wrong.code).toBe(3);
      const report = JSON.parse(wrong.stdout) as { agent: string; problems: string[] };
      expect(report.agent).toBe(nurse);
      expect(report.problems).toContain(`the call to ${MAIN} reached agent ${nurse}, not the expected ${front}`);
      // The nurse line has no webhook: that is said too.
      expect(report.problems.join("\n")).toContain(`agent ${nurse} has no webhook`);
      expect(wrong.stdout + wrong.stderr).not.toContain(ctx.token);
    } finally {
      await receiver.close();
    }
  }, 600_000);
});
