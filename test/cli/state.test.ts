// Reading `pulumi stack export` files: what a stack manages, by id; anything else is one clear line.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { dynamicToken, kindOfType } from "../../provider/identity.js";
import { KIND_NAMES, RESOURCE_KINDS } from "../../provider/cli/kinds.js";
import { parseStackExport, splitUrn } from "../../provider/cli/state.js";
import { CliError } from "../../provider/cli/errors.js";
import { exportOf } from "./fake-state.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** A 0.1.0 state (PhoneNumber ids are E.164) with the provider code trimmed and one secret output. */
const fixture010 = readFileSync(path.join(here, "fixtures/state-0.1.0.json"), "utf8");

describe("parseStackExport", () => {
  it("reads a 0.1.0 state: our resources by id, numbers by their E.164 id, nothing else", () => {
    const refs = parseStackExport(fixture010, "fixture");
    expect(refs.map((r) => `${r.kind} ${r.name} ${r.id}`).sort()).toEqual([
      "Action end-call 6223ecaa-9965-45dd-83db-cd49abfd70f6",
      "Agent sales-agent 4ea9f1ad-fdaf-495f-80c3-d236da2e97c0",
      "Agent support-agent ef69f133-9381-4760-9e82-9ade777480e6",
      "PhoneNumber sales-line +15550010002",
      "PhoneNumber support-line +15550010001",
      "Voice warm-voice 487c1403-a29d-4608-b04b-8f66a7af6b1b",
      "Webhook call-events 4fe995d6-eb18-4384-928c-a9e0bc1ddd81",
    ]);
    expect(new Set(refs.map((r) => r.stack))).toEqual(new Set(["pulumi-voiceagent/upgrade"]));
    expect(refs.find((r) => r.kind === "PhoneNumber")!.collection).toBe("numbers");
  });

  it("an empty stack manages nothing", () => {
    expect(parseStackExport(JSON.stringify({ version: 3, deployment: { manifest: {} } }), "empty")).toEqual([]);
  });

  it("maps every kind through the one table, calls to no collection", () => {
    const all = Object.keys(RESOURCE_KINDS).map((kind, i) => ({ kind, id: `id-${i}`, name: `r${i}` }));
    const refs = parseStackExport(exportOf(all), "all");
    // The current API's kinds are account objects too (issue 35): audit, drift and recover read them.
    expect(refs.map((r) => r.kind).sort()).toEqual([
      "AccountConnection",
      "Action",
      "Agent",
      "LinkedNumber",
      "PhoneNumber",
      "Prompt",
      "PurchasedNumber",
      "VectorDatabase",
      "Voice",
      "Webhook",
    ]);
    expect(kindOfType(dynamicToken("PurchasedNumber"), KIND_NAMES)).toBe("PurchasedNumber");
    expect(kindOfType("pulumi-nodejs:dynamic/voiceagent:toString", KIND_NAMES)).toBeUndefined();
    expect(kindOfType("aws:s3/bucket:Bucket", KIND_NAMES)).toBeUndefined();
  });

  it.each([
    // Each names the source (--state x), what it should be (a stack export) or the field at fault,
    // and, where a user can make one, the command that does.
    ["not JSON", "<html>nope</html>", [/--state x/, /\bJSON\b/, /stack export/]],
    [
      "JSON of another shape",
      JSON.stringify({ resources: [] }),
      [/--state x/, /stack export/, /`pulumi stack export --file/],
    ],
    ["a package.json", JSON.stringify({ name: "p", version: "1.0.0" }), [/--state x/, /stack export/]],
    [
      "resources without urns",
      JSON.stringify({ version: 3, deployment: { manifest: {}, resources: [{ type: "x" }] } }),
      [/deployment\.resources\.0\.urn/],
    ],
    [
      "a future version",
      JSON.stringify({ version: 4, deployment: { manifest: {} } }),
      [/--state x/, /\bversion 4\b/i, /\b3\b/],
    ],
  ])("%s is one line naming the problem", (_what, text, facts) => {
    let caught: unknown;
    try {
      parseStackExport(text, "--state x");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CliError);
    for (const fact of facts) expect((caught as Error).message).toMatch(fact);
    expect((caught as Error).message).not.toMatch(/\n/);
  });

  it("splits URNs, names with :: included", () => {
    expect(splitUrn("urn:pulumi:prod::app::pulumi-nodejs:dynamic/voiceagent:Agent::support")).toEqual({
      stack: "prod",
      project: "app",
      name: "support",
    });
    expect(splitUrn("urn:pulumi:prod::app::a$b::we::ird").name).toBe("we::ird");
  });
});
