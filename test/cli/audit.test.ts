// Audit classification: an account in memory against stack exports built in memory.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { emptyAccount } from "../../provider/cli/account.js";
import { AuditReportSchema, classify } from "../../provider/cli/audit.js";
import { humanReport } from "../../provider/cli/audit-command.js";
import { parseStackExport } from "../../provider/cli/state.js";
import { make, typicalAccount } from "./fake-account.js";
import { exportOf } from "./fake-state.js";

/** A state managing everything of the typical account; the first number by its E.164 id (0.1.0), the second by UUID (0.2.0). */
function managedAll(acc: ReturnType<typeof typicalAccount>, stack = "dev") {
  return parseStackExport(
    exportOf(
      [
        ...acc.voices.map((v, i) => ({ kind: "Voice", id: v.id, name: `voice-${i}` })),
        { kind: "Action", id: acc.actions[0]!.id, name: "hang-up" },
        { kind: "Webhook", id: acc.webhooks[0]!.id, name: "events" },
        { kind: "Agent", id: acc.support.id, name: "support" },
        { kind: "Agent", id: acc.sales.id, name: "sales" },
        { kind: "PhoneNumber", id: acc.numbers[0]!.number, name: "support-line" },
        { kind: "PhoneNumber", id: acc.numbers[1]!.id, name: "sales-line" },
      ],
      stack,
    ),
    stack,
  );
}

const summary = (r: ReturnType<typeof classify>) =>
  r.findings.map((f) => `${f.finding} ${f.collection} ${f.id}`).sort();

describe("classify", () => {
  it("is clean when every object is managed; unbound numbers are inventory, not findings", () => {
    const acc = typicalAccount();
    const report = AuditReportSchema.parse(classify(acc, managedAll(acc)));
    expect(report.findings).toEqual([]);
    expect(report.clean).toBe(true);
    expect(report.counts).toEqual({
      // The current API's collections are counted too (issue 35): none in this account.
      account: {
        voices: 2,
        actions: 1,
        webhooks: 1,
        prompts: 0,
        vector_databases: 0,
        account_connections: 0,
        agents: 2,
        numbers: 3,
      },
      managed: 8,
    });
    expect(humanReport(report)).toMatch(/^clean: /);
  });

  it("finds exactly an unmanaged agent, a managed agent gone from the account, and a number bound to an unmanaged agent", () => {
    const acc = typicalAccount();
    const refs = managedAll(acc);
    const stray = make.agent(acc.voices[0]!, { prompt: "You are a console experiment." });
    acc.agents = [acc.support, stray];
    acc.numbers[2] = { ...acc.numbers[2]!, inbound_agent: stray };
    const report = classify(acc, refs);
    expect(summary(report)).toEqual(
      [
        `unmanaged agents ${stray.id}`,
        `missing agents ${acc.sales.id}`,
        `bound-to-unmanaged-agent numbers ${acc.numbers[2]!.id}`,
      ].sort(),
    );
    expect(report.clean).toBe(false);
    const byKind = Object.fromEntries(report.findings.map((f) => [f.finding, f]));
    expect(byKind.unmanaged!.label).toBe("console-experiment");
    expect(byKind.missing).toMatchObject({ label: "sales (Agent)", urns: [expect.stringMatching(/::sales$/)] });
    // Names the stack and the resource that manage it, and says it is gone.
    expect(byKind.missing!.detail).toContain("proj/dev");
    expect(byKind.missing!.detail).toMatch(/\bsales\b/);
    expect(byKind.missing!.detail).toMatch(/gone|missing|deleted|no longer/i);
    expect(byKind["bound-to-unmanaged-agent"]).toMatchObject({
      label: "number ending 0003",
      detail: expect.stringContaining(stray.id),
    });
    const table = humanReport(report);
    expect(table.split("\n")[0]).toMatch(/^FINDING\s+KIND\s+ID\s+LABEL\s+DETAIL$/);
    expect(table).toMatch(/3 found \(1 unmanaged, 1 missing, 1 bound to unmanaged agent\)/);
    expect(table).not.toContain("+15550010003");
  });

  it("a bound number whose binding no stack manages is unmanaged; a cancelled managed number is missing", () => {
    const acc = typicalAccount();
    const refs = managedAll(acc).filter((r) => r.name !== "sales-line");
    acc.numbers[0] = { ...acc.numbers[0]!, active: false };
    expect(summary(classify(acc, refs))).toEqual(
      [`missing numbers ${acc.numbers[0]!.number}`, `unmanaged numbers ${acc.numbers[1]!.id}`].sort(),
    );
  });

  it("an object managed by two stacks is reported once, with both resources", () => {
    const acc = typicalAccount();
    const other = parseStackExport(
      exportOf([{ kind: "Agent", id: acc.support.id, name: "copy" }], "staging"),
      "staging",
    );
    const report = classify(acc, [...managedAll(acc), ...other]);
    expect(summary(report)).toEqual([`managed-twice agents ${acc.support.id}`]);
    expect(report.findings[0]!.urns).toHaveLength(2);
    expect(report.stacks).toEqual(["proj/dev", "proj/staging"]);
  });

  it("--only limits both directions", () => {
    const acc = typicalAccount();
    const refs = managedAll(acc).filter((r) => r.kind !== "Agent");
    const stray = make.voice({ voice_name: "stray" });
    acc.voices.push(stray);
    expect(summary(classify(acc, refs, ["voices"]))).toEqual([`unmanaged voices ${stray.id}`]);
    expect(classify(acc, managedAll(acc), ["actions", "webhooks"]).clean).toBe(true);
  });

  it("matches a 0.1.0 state by ids alone, never by output values (which may be secret)", () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const refs = parseStackExport(readFileSync(path.join(here, "fixtures/state-0.1.0.json"), "utf8"), "fixture");
    const id = (name: string) => refs.find((r) => r.name === name)!.id;
    const voice = make.voice({ id: id("warm-voice") });
    const support = make.agent(voice, { id: id("support-agent") });
    const sales = make.agent(voice, { id: id("sales-agent") });
    const acc = {
      ...emptyAccount(),
      voices: [voice],
      actions: [make.action({ id: id("end-call") })],
      webhooks: [make.webhook({ id: id("call-events") })],
      agents: [support, sales],
      numbers: [
        make.number("+15550010001", support),
        make.number("+15550010002", sales),
        make.number("+15550010003", null),
      ],
      gaps: {},
    };
    expect(classify(acc, refs).findings).toEqual([]);
  });
});
