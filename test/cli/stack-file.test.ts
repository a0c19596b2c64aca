// `voiceagent pull --format stack`, in-process: the account becomes a stack file whose fleet value
// passes the fleet check, adopts each object by id and refers by key; any string (a prompt with
// quotes, line breaks, `: ` or `#`) reads back from the YAML exactly as the service holds it.
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../provider/cli/plan.js";
import { fleetProjectFiles } from "../../provider/cli/stack-file.js";
import { checkFleet } from "../../provider/fleet/check.js";
import { make, typicalAccount } from "./fake-account.js";
import { cliInProcess } from "./run-cli.js";

// js-yaml is @pulumi/pulumi's own dependency: a YAML 1.2 reader independent of the writer under test.
const jsYaml: { load(text: string): unknown } = createRequire(createRequire(import.meta.url).resolve("@pulumi/pulumi"))(
  "js-yaml",
);

/** The fleet value of the written stack file, as a YAML reader sees it. */
function fleetOf(files: Map<string, string>, stack: string, project: string): unknown {
  const doc = jsYaml.load(files.get(`Pulumi.${stack}.yaml`) ?? "");
  const config = typeof doc === "object" && doc !== null && "config" in doc ? doc.config : undefined;
  return typeof config === "object" && config !== null
    ? Object.entries(config).find(([k]) => k === `${project}:fleet`)?.[1]
    : undefined;
}

const written = (account: ReturnType<typeof typicalAccount>) => {
  const made = fleetProjectFiles(buildPlan(account), "va-pulled", "prod");
  if ("problems" in made) throw new Error(made.problems.join("\n"));
  return made.files;
};

describe("pull --format stack", () => {
  it("writes a stack file whose fleet adopts every object by id and refers by key, and the Fleet program", () => {
    const account = typicalAccount();
    const files = written(account);
    expect(files.get("index.ts")).toMatch(/new Fleet\("fleet", fleetFromConfig\(\)\)/);
    const checked = checkFleet(fleetOf(files, "prod", "va-pulled"));
    if (!checked.ok) throw new Error(checked.problems.join("\n"));
    const { voices = {}, agents = {}, lines = {}, actions = {}, webhooks = {} } = checked.fleet;
    const keyOf = <T extends { id?: string }>(section: Record<string, T>, id: string) =>
      Object.entries(section).find(([, e]) => e.id === id)?.[0];
    const support = agents[keyOf(agents, account.support.id) ?? ""];
    expect(support?.voice).toBe(keyOf(voices, account.support.voice.id));
    expect(support?.actions).toEqual([keyOf(actions, account.actions[0]?.id ?? "")]);
    expect(support?.webhook).toBe(keyOf(webhooks, account.webhooks[0]?.id ?? ""));
    expect(support?.initialMessage).toBe("Hello!");
    // Bound numbers are lines; the unbound one has no binding to declare.
    expect(
      Object.values(lines)
        .map((l) => [l.number, l.agent])
        .sort(),
    ).toEqual(
      [
        ["+15550010001", keyOf(agents, account.support.id)],
        ["+15550010002", keyOf(agents, account.sales.id)],
      ].sort(),
    );
  });

  it("writes any prompt so that YAML reads it back exactly", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", minLength: 1, maxLength: 80 }).filter((s) => s.trim().length > 0),
        (prompt) => {
          const account = typicalAccount();
          const agent = make.agent(account.voices[0] ?? make.voice(), { prompt });
          const files = written({ ...account, agents: [...account.agents, agent] });
          const checked = checkFleet(fleetOf(files, "prod", "va-pulled"));
          expect(checked.ok && Object.values(checked.fleet.agents ?? {}).find((a) => a.id === agent.id)?.prompt).toBe(
            prompt,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("pull's --format", () => {
  // A base URL nothing listens on: these must fail on their options, before any request.
  const env = { VOICEAGENT_BASE_URL: "http://127.0.0.1:9", VOICEAGENT_TOKEN: "t0ken-value" };

  it("refuses an unknown format, and --format stack with --import-file, naming the option", async () => {
    const unknown = await cliInProcess(["pull", "--format", "hcl", "--out", "/nonexistent/x"], env);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      expect.stringMatching(/--format must be program, stack or yaml/),
    ]);
    const both = await cliInProcess(
      ["pull", "--format", "stack", "--import-file", "i.json", "--out", "/nonexistent/x"],
      env,
    );
    expect([both.code, both.stderr]).toEqual([
      1,
      expect.stringMatching(/--import-file and --format stack do not go together[^\n]*nothing was read or written/),
    ]);
  });
});
