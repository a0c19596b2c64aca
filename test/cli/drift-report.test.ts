// The drift report from engine events of `pulumi preview --refresh`, as the Automation API passes them.
import { describe, expect, it } from "vitest";
import { registerSecret } from "../../provider/client/index.js";
import { driftFromEvents, DriftReportSchema, humanDrift, maskSecrets } from "../../provider/cli/drift-report.js";
import { pulumiFailure } from "../../provider/cli/drift.js";

const T = "pulumi-nodejs:dynamic/voiceagent:";
const urn = (kind: string, name: string) => `urn:pulumi:prod::app::${T}${kind}::${name}`;
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };
/** A step whose states hold the given values as both inputs and outputs (as after a create, and after a refresh read). */
const step = (op: string, kind: string, name: string, old?: object, now?: object) => ({
  op,
  urn: kind.startsWith("pulumi:") ? `urn:pulumi:prod::app::${kind}::${name}` : urn(kind, name),
  type: kind.startsWith("pulumi:") ? kind : `${T}${kind}`,
  provider: "",
  ...(old ? { old: { inputs: { __provider: "code v1", ...old }, outputs: { __provider: "code v1", ...old } } } : {}),
  ...(now ? { new: { inputs: { __provider: "code v2", ...now }, outputs: { __provider: "code v2", ...now } } } : {}),
});
const pre = (m: object) => ({ sequence: 1, timestamp: 1, resourcePreEvent: { metadata: m } });
const done = (m: object) => ({ sequence: 2, timestamp: 2, resOutputsEvent: { metadata: m } });

describe("driftFromEvents", () => {
  it("reports edited properties (state → live), deletions, and what up would do; ignores the rest", () => {
    const events = [
      { sequence: 0, timestamp: 0, preludeEvent: { config: {} } },
      pre(step("refresh", "Agent", "support", { prompt: "Be kind." }, { prompt: "Edited." })),
      done(
        step("refresh", "Agent", "support", { prompt: "Be kind.", voice: "v1" }, { prompt: "Edited.", voice: "v1" }),
      ),
      done(step("refresh", "Agent", "sales", { prompt: "Sell." })),
      done(step("refresh", "Voice", "warm", { pitch: 1 }, { pitch: 1 })),
      done(
        step(
          "refresh",
          "pulumi:providers:pulumi-nodejs",
          "default",
          { "voiceagent:token": "[secret]" },
          { "voiceagent:token": "other" },
        ),
      ),
      done(step("refresh", "pulumi:pulumi:Stack", "app-prod", {}, { x: 1 })),
      pre(step("update", "Agent", "support", { prompt: "Edited.", voice: "v1" }, { prompt: "Be kind.", voice: "v1" })),
      pre(step("create", "Agent", "sales", undefined, { prompt: "Sell." })),
      pre(step("same", "Voice", "warm", { pitch: 1 }, { pitch: 1 })),
      { not: "an engine event" },
    ];
    const report = DriftReportSchema.parse(driftFromEvents(events));
    expect(report.clean).toBe(false);
    expect(report.drifted).toEqual([
      {
        urn: urn("Agent", "support"),
        kind: "Agent",
        name: "support",
        status: "changed",
        properties: [{ name: "prompt", old: "Be kind.", new: "Edited." }],
      },
      { urn: urn("Agent", "sales"), kind: "Agent", name: "sales", status: "deleted", properties: [] },
    ]);
    expect(report.planned).toEqual([
      { urn: urn("Agent", "support"), kind: "Agent", name: "support", op: "update", properties: ["prompt"] },
      { urn: urn("Agent", "sales"), kind: "Agent", name: "sales", op: "create", properties: [] },
    ]);
    const text = humanDrift(report);
    expect(text).toContain('Agent support: prompt: "Be kind." → "Edited."');
    expect(text).toContain("Agent sales: deleted outside Pulumi");
    expect(text).toMatch(
      /pulumi up would:\nOP\s+KIND\s+NAME\s+PROPERTIES\nupdate\s+Agent\s+support\s+prompt\ncreate\s+Agent\s+sales/,
    );
  });

  it("is clean when refresh finds nothing and up would do nothing", () => {
    const report = driftFromEvents([
      done(step("refresh", "Voice", "warm", { pitch: 1 }, { pitch: 1 })),
      pre(step("same", "Voice", "warm", { pitch: 1 }, { pitch: 1 })),
    ]);
    expect(report).toEqual({ clean: true, drifted: [], planned: [] });
    expect(humanDrift(report)).toMatch(/^clean: /);
  });

  it("compares what the state recorded of the live object, not the program's inputs, and only the kind's input properties", () => {
    // After `up` the state's inputs are the program's, its outputs what the create's answer held,
    // the service's defaults included; a refresh read records them all as inputs.
    const made = { prompt: "Be kind.", voice: "v1", ivrNavigationMode: "default", userId: "u1" };
    const refresh = (live: object) => ({
      ...step("refresh", "Agent", "support"),
      old: { inputs: { prompt: "Be kind.", voice: "v1" }, outputs: made },
      new: { inputs: { ...made, ...live, userId: undefined }, outputs: { ...made, ...live } },
    });
    expect(driftFromEvents([done(refresh({}))])).toEqual({ clean: true, drifted: [], planned: [] });
    // An output that is not an input (the owner) is the service's; a hand edit of the defaulted field is drift.
    const edited = driftFromEvents([done(refresh({ ivrNavigationMode: "off", userId: "u2" }))]);
    expect(edited.drifted).toEqual([
      expect.objectContaining({
        kind: "Agent",
        properties: [{ name: "ivrNavigationMode", old: "default", new: "off" }],
      }),
    ]);
  });

  it("masks secrets: Pulumi's secret objects, the engine's [secret], and the token wherever it appears", () => {
    const token = `drift-test-token-${Date.now()}`;
    registerSecret(token);
    expect(maskSecrets({ a: SECRET, b: ["[secret]", `Bearer ${token}`], c: 3 })).toEqual({
      a: "[secret]",
      b: ["[secret]", "Bearer [REDACTED]"],
      c: 3,
    });
    const report = driftFromEvents([
      done(
        step(
          "refresh",
          "PhoneNumber",
          "line",
          { number: SECRET, inboundAgent: "a1" },
          { number: "[secret]", inboundAgent: `x${token}` },
        ),
      ),
    ]);
    expect(report.drifted[0]!.properties).toEqual([{ name: "inboundAgent", old: "a1", new: "x[REDACTED]" }]);
    expect(JSON.stringify(report) + humanDrift(report)).not.toContain(token);
  });
});

describe("pulumiFailure", () => {
  it("keeps the error lines of a failed command's stderr, on one line", () => {
    const message =
      "code: 255\n stdout: Previewing update (ci):\n\n stderr: warning: something minor\nerror: no stack named 'nope' " +
      "found\nerror: preview failed\n err?: Error: Command failed with exit code 255\n";
    expect(pulumiFailure(new Error(message))).toBe("no stack named 'nope' found");
  });

  it("says when pulumi is not installed, and falls back to stderr's first line", () => {
    // Says which program is missing and where it was looked for.
    const missing = pulumiFailure(
      new Error(
        "code: -2\n stdout: \n stderr: Command failed with ENOENT: pulumi version\nspawn pulumi ENOENT\n err?: x\n",
      ),
    );
    expect(missing).toMatch(/\bpulumi\b/);
    expect(missing).toMatch(/\bPATH\b|not installed|not found/);
    expect(pulumiFailure(new Error("code: 1\n stdout: \n stderr: panic: boom\nmore\n err?: x\n"))).toBe("panic: boom");
  });
});
