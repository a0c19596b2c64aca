// The Python SDK's Fleet (sdk-overlays/python/fleet.py, shipped in sdk/python) checks a fleet with
// the rules of provider/fleet/schema.ts, through zod's JSON Schema of it: this runs both checks on
// the same fleets and requires the same problems, in the same order, word for word. Then the
// component itself under Pulumi's Python mocks: names, aliases, protection, secrets, ids.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkFleet } from "../../provider/dist/fleet/check.js";
import { FleetConfigError } from "../../provider/dist/fleet/error.js";
import { REPO_ROOT } from "../helpers/consumer.js";
import { CASES } from "./python-cases.js";

const python = process.env.VOICEAGENT_PYTHON ?? "";

/** A folder that tells importlib.metadata the package's version, as an installed wheel would (no build needed). */
function metadataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "va-fleet-py-"));
  const info = path.join(dir, "pulumi_voiceagent-0.0.0.dist-info");
  mkdirSync(info);
  writeFileSync(path.join(info, "METADATA"), "Metadata-Version: 2.1\nName: pulumi_voiceagent\nVersion: 0.0.0\n");
  return dir;
}

/** Runs `script` with the fleets on stdin and sdk/python importable; its stdout is JSON. */
function runPython(script: string, input: unknown): unknown {
  if (!python) throw new Error("VOICEAGENT_PYTHON is not set: run the tests through scripts/run.sh");
  const metadata = metadataDir();
  try {
    const pythonPath = [path.join(REPO_ROOT, "sdk", "python"), metadata].join(path.delimiter);
    const out = execFileSync(python, ["-c", script], {
      input: JSON.stringify(input),
      env: { ...process.env, PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: "1" },
      encoding: "utf8",
    });
    return JSON.parse(out);
  } finally {
    rmSync(metadata, { recursive: true, force: true });
  }
}

const CHECK = `
import json, sys
from pulumi_voiceagent import check_fleet
print(json.dumps({k: check_fleet(v) for k, v in json.load(sys.stdin).items()}))
`;

describe("the Python SDK's fleet check", () => {
  const fromPython = runPython(CHECK, CASES);

  it.each(Object.keys(CASES))("judges %s as the TypeScript check does", (name) => {
    const r = checkFleet(CASES[name]);
    expect(Reflect.get(Object(fromPython), name)).toEqual(r.ok ? [] : r.problems);
  });

  it("names the path and the choices of the issue's example", () => {
    expect(Reflect.get(Object(fromPython), "issueExample")).toEqual([
      'fleet.agents.support.voice: no voice named "warm2" (voices: calm, warm)',
    ]);
  });
});

const DECLARE = `
import json, sys
import pulumi

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        bought = {"number": "+15550009999"} if args.typ.endswith("PurchasedNumber") else {}
        return [args.name + "-id", {**args.inputs, **bought}]
    def call(self, args):
        return {}

pulumi.runtime.set_mocks(Mocks(), project="proj", stack="dev", preview=False)
from pulumi_voiceagent import Fleet
out = {}

@pulumi.runtime.test
def declare():
    f = Fleet("fleet", json.load(sys.stdin), secret=True)
    rs = f.resources
    out["names"] = {s: {k: [r._name, type(r).__name__] for k, r in v.items()} for s, v in rs.items()}
    out["protect"] = {k: bool(r._protect) for k, r in f.purchases.items()}
    every = [r for v in rs.values() for r in v.values()]
    def done(vals):
        out["ids"], out["aliases"], out["promptSecret"], out["inbound"], out["numbers"] = vals
        print(json.dumps(out))
    return pulumi.Output.all(
        f.ids,
        pulumi.Output.all(*[a for r in every for a in r._aliases]),
        rs["agents"]["support"].prompt.is_secret(),
        pulumi.Output.all(*[r.inbound_agent for r in rs["lines"].values()]),
        pulumi.Output.all(*[r.number for r in rs["lines"].values()]),
    ).apply(done)

declare()
`;

describe("the Python SDK's Fleet", () => {
  it("declares <fleet>-<key> resources, refs as ids, was as aliases, bought numbers protected, secrets, ids", () => {
    const fleet = {
      voices: { warm: { voiceName: "alloy", pitch: 0, rate: 1 } },
      agents: { support: { prompt: "Hi", voice: "warm", was: "helpdesk" } },
      lines: {
        main: { agent: "support", number: 15550001111 },
        new: { agent: "support", buy: { areaCode: "415" } },
        temp: { agent: "support", buy: {}, protect: false },
        // A linked number without an agent (it only places calls).
        outbound: {
          number: 15550001112,
          link: { connection: "0b0c5b4e-8d0a-4c1e-9f6a-1d2e3f4a5b6c", outboundOnly: true },
        },
      },
    };
    const out = runPython(DECLARE, fleet);
    expect(out).toMatchObject({
      names: {
        voices: { warm: ["fleet-warm", "Voice"] },
        agents: { support: ["fleet-support", "Agent"] },
        lines: {
          main: ["fleet-main", "PhoneNumber"],
          new: ["fleet-new", "PhoneNumber"],
          temp: ["fleet-temp", "PhoneNumber"],
          outbound: ["fleet-outbound", "LinkedNumber"],
        },
      },
      protect: { new: true, temp: false },
      ids: {
        voices: { warm: "fleet-warm-id" },
        agents: { support: "fleet-support-id" },
        lines: { main: "fleet-main-id", new: "fleet-new-id", temp: "fleet-temp-id", outbound: "fleet-outbound-id" },
        numbers: { new: "+15550009999", temp: "+15550009999" },
      },
      promptSecret: true,
      inbound: ["fleet-support-id", "fleet-support-id", "fleet-support-id", null],
      numbers: ["+15550001111", "+15550009999", "+15550009999", "+15550001112"],
    });
    const aliases: unknown = Reflect.get(Object(out), "aliases");
    expect(aliases).toEqual([
      expect.stringMatching(/\$voiceagent:fleet:Fleet\$voiceagent:index:Agent::fleet-helpdesk$/),
    ]);
  });
});

const FROM_CONFIG = `
import json, sys
import pulumi
from pulumi.runtime.config import set_all_config

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        return [args.name + "-id", args.inputs]
    def call(self, args):
        return {}

pulumi.runtime.set_mocks(Mocks(), project="proj", stack="dev", preview=False)
from pulumi_voiceagent import FleetConfigError, fleet_from_config
out = {}
for name, (value, secret) in json.load(sys.stdin).items():
    set_all_config({} if value is None else {"proj:fleet": value}, ["proj:fleet"] if secret else [])
    try:
        args = fleet_from_config()
        out[name] = {"secret": args["secret"], "fleet": args["fleet"]}
    except FleetConfigError as e:
        out[name] = {"error": str(e)}
print(json.dumps(out))
`;

describe("the Python SDK's fleet_from_config", () => {
  const SECRET = "s3cret-Prompt-91c4";
  const bad = { agents: { a: { prompt: SECRET, voice: "warm2", webhook: 7 } } };
  const out = runPython(FROM_CONFIG, {
    plain: [JSON.stringify({ voices: { w: { voiceName: "a", pitch: 0, rate: 0, was: "old" } } }), false],
    secret: [JSON.stringify({ agents: {} }), true],
    missing: [null, false],
    notJson: [SECRET, true],
    bad: [JSON.stringify(bad), true],
  });
  const at = (name: string): unknown => Reflect.get(Object(out), name);

  it("reads <project>:fleet, secret exactly when Pulumi lists the key as secret", () => {
    expect(at("plain")).toEqual({
      secret: false,
      fleet: { voices: { w: { voiceName: "a", pitch: 0, rate: 0, was: ["old"] } } },
    });
    expect(at("secret")).toEqual({ secret: true, fleet: { agents: {} } });
  });

  it("refuses a missing, a non-mapping and a bad fleet naming the stack file, with the TypeScript error's words and no value", () => {
    expect(JSON.stringify(at("missing"))).toMatch(
      /Pulumi\.dev\.yaml.*fleet: required: this stack's config has no `proj:fleet`/,
    );
    expect(JSON.stringify(at("notJson"))).toMatch(/fleet: must be a mapping/);
    const r = checkFleet(bad);
    if (r.ok) throw new Error("the bad fleet passed the TypeScript check");
    expect(at("bad")).toEqual({ error: new FleetConfigError(r.problems, "fleet", "Pulumi.dev.yaml").message });
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });
});
