// The fleet of a stack file, checked in-process: every problem reported at once, each naming its
// path as `pulumi config set --path` writes it, unknown keys refused, no value repeated (any may be
// a secret), and a good fleet given back as it was written.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkFleet, parseFleet } from "../../provider/dist/fleet/check.js";
import { FleetConfigError } from "../../provider/dist/fleet/error.js";
import { REPO_ROOT } from "../helpers/consumer.js";

const SECRET = "s3cret-Prompt-7f2a";
const good = {
  voices: {
    warm: { voiceName: "alloy", pitch: 0, rate: 1 },
    calm: { voiceName: "nova", pitch: -1, rate: 1, type: "voice_azure" },
  },
  actions: { "hang-up": { type: "action_end_conversation" } },
  webhooks: { events: { url: "https://hooks.example.com/va", subscriptions: ["event_message"] } },
  agents: {
    support: { prompt: SECRET, voice: "warm", actions: ["hang-up"], webhook: "events" },
    sales: { prompt: "Sell.", voice: randomUUID(), was: "sales-old" },
  },
  lines: { main: { number: "+15550010001", agent: "support" }, new: { buy: { areaCode: "415" }, agent: "sales" } },
};

const problemsOf = (value: unknown) => {
  const r = checkFleet(value);
  if (r.ok) throw new Error("expected problems, the fleet passed");
  return r.problems;
};

describe("checkFleet", () => {
  it("gives a good fleet back, a single former name as a list", () => {
    const r = checkFleet(good);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.fleet.agents?.support?.prompt).toBe(SECRET);
      expect(r.fleet.agents?.sales?.was).toEqual(["sales-old"]);
      expect(r.fleet.lines?.new?.buy).toEqual({ areaCode: "415" });
    }
  });

  it("reports every problem at once, each naming its path in the stack file", () => {
    const bad = {
      ...good,
      voices: { ...good.voices, calm: { ...good.voices.calm, pitch: 1.5 } },
      webhooks: { events: { ...good.webhooks.events, method: "PUT" } },
      agents: {
        support: { ...good.agents.support, voice: "warm2", promtp: "typo" },
        sales: { ...good.agents.sales, actions: ["hang-up", "transfer"] },
      },
      lines: { ...good.lines, main: { ...good.lines.main, agent: "suport" } },
    };
    const problems = problemsOf({ ...bad, agent: {} });
    expect(problems).toEqual(
      expect.arrayContaining([
        'fleet.agents.support.voice: no voice named "warm2" (voices: calm, warm)',
        expect.stringMatching(/^fleet\.agents\.support\.promtp: unknown key \(known: .*prompt/),
        expect.stringMatching(/^fleet\.agents\.sales\.actions\[1\]: no action named "transfer" \(actions: hang-up\)/),
        'fleet.lines.main.agent: no agent named "suport" (agents: sales, support)',
        expect.stringMatching(/^fleet\.voices\.calm\.pitch: .*integer/),
        expect.stringMatching(/^fleet\.webhooks\.events\.method: .*"GET"\|"POST"/),
        expect.stringMatching(
          /^fleet\.agent: unknown key \(known: voices, actions, webhooks, prompts, vectorDatabases, accountConnections, agents, lines\)/,
        ),
      ]),
    );
    expect(problems).toHaveLength(7);
  });

  it("refuses a line with both or neither of number and buy, two lines on one number, two entries adopting one object", () => {
    const id = randomUUID();
    const problems = problemsOf({
      voices: { a: { voiceName: "x", pitch: 0, rate: 1, id }, b: { voiceName: "y", pitch: 0, rate: 1, id } },
      agents: { s: { prompt: "p", voice: "a" } },
      lines: {
        both: { number: "+15550010001", buy: {}, agent: "s" },
        neither: { agent: "s" },
        again: { number: "+15550010001", agent: "s" },
        kept: { number: "+15550010002", agent: "s", protect: true },
      },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^fleet\.lines\.both: .*either/),
        expect.stringMatching(/^fleet\.lines\.neither: .*either/),
        "fleet.lines.again.number: the same number as fleet.lines.both.number",
        "fleet.voices.b.id: the same object as fleet.voices.a.id",
        expect.stringMatching(/^fleet\.lines\.kept\.protect: /),
      ]),
    );
  });

  it(`takes a linked line (number and link), and refuses link with buy, a link naming no declared connection (nor a UUID) or with an \
unknown key`, () => {
    const connection = randomUUID();
    const r = checkFleet({
      agents: { s: { prompt: "p", voice: randomUUID() } },
      lines: { own: { number: "+15550020002", agent: "s", link: { connection, outboundOnly: false } } },
    });
    expect(r.ok && r.fleet.lines?.own?.link).toEqual({ connection, outboundOnly: false });
    const problems = problemsOf({
      agents: { s: { prompt: "p", voice: randomUUID() } },
      lines: {
        bought: { agent: "s", link: { connection }, buy: {} },
        typo: { number: "+15550020003", agent: "s", link: { connection: "nope", outbund: true } },
      },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^fleet\.lines\.bought\.link: a linked number is one of your Twilio account's/),
        // A connection is a key of accountConnections or an existing one's UUID (issue 35).
        'fleet.lines.typo.link.connection: no account connection named "nope" (the fleet declares no ' +
          "accountConnections; name an existing account connection by its UUID)",
        expect.stringMatching(/^fleet\.lines\.typo\.link\.outbund: unknown key \(known: connection, outboundOnly\)/),
      ]),
    );
  });

  it(`takes a linked line without an agent (outbound only, or linked for later); refuses a line without one otherwise, \
and an agent on an outbound-only number, naming the field`, () => {
    const connection = randomUUID();
    const r = checkFleet({
      lines: {
        outbound: { number: "+15550020004", link: { connection, outboundOnly: true } },
        later: { number: "+15550020005", link: { connection } },
      },
    });
    expect(r.ok && r.fleet.lines).toEqual({
      outbound: { number: "+15550020004", link: { connection, outboundOnly: true } },
      later: { number: "+15550020005", link: { connection } },
    });
    const problems = problemsOf({
      agents: { s: { prompt: "p", voice: randomUUID() } },
      lines: {
        owned: { number: "+15550020006" },
        bought: { buy: { areaCode: "415" } },
        both: { number: "+15550020007", agent: "s", link: { connection, outboundOnly: true } },
      },
    });
    expect([...problems].sort()).toEqual([
      "fleet.lines.both.agent: an outbound-only number (`link.outboundOnly: true`) has no agent answering it: " +
        "remove `agent`, or set `link.outboundOnly` to false",
      "fleet.lines.bought.agent: required: the agent that answers the line (only a linked number, `link`, may have none)",
      "fleet.lines.owned.agent: required: the agent that answers the line (only a linked number, `link`, may have none)",
    ]);
  });

  it("refuses a former name that is still a key, and a key that cannot name a resource", () => {
    const problems = problemsOf({
      agents: {
        a: { prompt: "p", voice: randomUUID(), was: ["b"] },
        b: { prompt: "q", voice: randomUUID() },
        "x::y": { prompt: "r", voice: randomUUID() },
      },
    });
    expect(problems).toContain('fleet.agents.a.was[0]: "b" is still a key of agents; a former name must be free');
    expect(problems.some((p) => p.startsWith('fleet.agents["x::y"]'))).toBe(true);
  });

  it("takes an unquoted number or area code back as the string YAML read as an integer", () => {
    const r = checkFleet({
      agents: { s: { prompt: "p", voice: randomUUID() } },
      lines: { a: { number: 15550010001, agent: "s" }, b: { buy: { areaCode: 415 }, agent: "s" } },
    });
    expect(r.ok && r.fleet.lines).toEqual({
      a: { number: "+15550010001", agent: "s" },
      b: { buy: { areaCode: "415" }, agent: "s" },
    });
  });

  it("never repeats a value: a secret in the wrong place, of the wrong type or in a bad reference stays out of every message", () => {
    const problems = problemsOf({
      voices: { v: { voiceName: SECRET, pitch: SECRET, rate: 1, type: SECRET } },
      webhooks: { w: { url: `ftp://${SECRET}`, subscriptions: [SECRET] } },
      agents: { a: { prompt: 5, voice: `${SECRET} with spaces`, initialMessage: 7 } },
      lines: { l: { number: SECRET, agent: "a" } },
    });
    expect(problems.length).toBeGreaterThanOrEqual(7);
    expect(problems.join("\n")).not.toContain(SECRET);
  });

  it("throws one error listing every problem, that Pulumi prints without a stack trace", () => {
    const err = (() => {
      try {
        parseFleet({
          agents: { a: { prompt: "p", voice: "nope" } },
          lines: { l: { agent: "b", number: "+15550010001" } },
        });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(FleetConfigError);
    if (!(err instanceof FleetConfigError)) return;
    expect(err.__pulumiRunError).toBe(true);
    expect(err.message).toMatch(
      new RegExp(
        /2 problems[\s\S]*nothing was sent[\s\S]*\n {2}fleet\.agents\.a\.voice: no voice named "nope"/.source +
          /[\s\S]*\n {2}fleet\.lines\.l\.agent: no agent named "b"/.source,
      ),
    );
  });
});

describe("loading the entries", () => {
  it("loads zod only when a fleet is checked: a program without a Fleet does not pay for it", () => {
    const script = [
      `const zod = () => Object.keys(require.cache).filter((k) => k.includes("/node_modules/zod/")).length;`,
      `const root = require(${JSON.stringify(path.join(REPO_ROOT, "provider/dist/index.js"))});`,
      `require(${JSON.stringify(path.join(REPO_ROOT, "provider/dist/native/index.js"))});`,
      "const before = zod();",
      "root.checkFleet({});",
      "console.log(JSON.stringify([before, zod() > 0]));",
    ].join("\n");
    expect(JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }))).toEqual([0, true]);
  });
});
