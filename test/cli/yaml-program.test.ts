// `voiceagent pull --format yaml`'s program, in-process: what Pulumi YAML reads from it (parsed
// with a YAML parser, `$$` read back as `$` as the YAML host does) is the plan, with no prompt in it.
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { emptyAccount } from "../../provider/cli/account.js";
import { buildPlan } from "../../provider/cli/plan.js";
import { yamlProject, yamlString } from "../../provider/cli/yaml-program.js";
import { make, typicalAccount } from "./fake-account.js";

type Decl = { type: string; name?: string; properties: Record<string, unknown> };
const read = (text: string) =>
  parse(text) as { runtime: string; config?: Record<string, unknown>; resources: Record<string, Decl> };
/**
 * A literal string as the YAML host reads it (pulumi-yaml's ast/interpolation.go): `$$` is one
 * `$`, and `${` starts an interpolation, which no literal may hold.
 */
function hostRead(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    if (s.startsWith("$$", i)) {
      out += "$";
      i++;
    } else if (s.startsWith("${", i)) throw new Error(`interpolated at ${i}: ${s}`);
    else out += s[i];
  }
  return out;
}

describe("pull --format yaml", () => {
  it("declares every object adopted by id, references as ${<key>.id}, each prompt as a secret config value", () => {
    const account = typicalAccount();
    const { files, secrets } = yamlProject(buildPlan(account), "pulled");
    const text = files.get("Pulumi.yaml") ?? "";
    const doc = read(text);
    expect(doc.runtime).toBe("yaml");
    for (const a of account.agents) expect(text).not.toContain(a.prompt);
    expect([...secrets.values()].sort()).toEqual(account.agents.map((a) => a.prompt).sort());
    for (const key of secrets.keys()) expect(doc.config?.[key]).toEqual({ type: "string", secret: true });
    const support = Object.values(doc.resources).find((r) => r.properties.agentId === account.support.id);
    expect(support?.type).toBe("voiceagent:Agent");
    expect(String(support?.properties.prompt)).toMatch(/^\$\{\w+Prompt\}$/);
    const [hangUp] = account.actions;
    const actionKey = Object.entries(doc.resources).find(([, r]) => r.properties.actionId === hangUp?.id)?.[0];
    expect(support?.properties.actions).toEqual([`\${${actionKey}.id}`]);
    const lock = [...files.keys()].find((f) => f.startsWith("sdks/"));
    expect(lock).toMatch(/^sdks\/voiceagent\/voiceagent-\d+\.\d+\.\d+.*\.yaml$/);
    expect(files.get(lock ?? "")).not.toContain("${VERSION}");
  });

  it("writes text with `$`, `${`, quotes and line breaks so that Pulumi YAML reads it back unchanged", () => {
    const tricky = 'Say "${name}" costs $5\nand \\ stays.';
    expect(hostRead(parse(`v: ${yamlString(tricky)}`).v as string)).toBe(tricky);
    const voice = make.voice();
    const agent = make.agent(voice, { initial_message: tricky, prompt: "You are ${x}." });
    const { files, secrets } = yamlProject(
      buildPlan({
        ...emptyAccount(),
        voices: [voice],
        actions: [],
        webhooks: [],
        agents: [agent],
        numbers: [],
        gaps: {},
      }),
      "pulled",
    );
    const doc = read(files.get("Pulumi.yaml") ?? "");
    const declared = Object.values(doc.resources).find((r) => r.type === "voiceagent:Agent");
    expect(hostRead(String(declared?.properties.initialMessage))).toBe(tricky);
    // The prompt goes to the stack's config as it is: config values are not interpolated.
    expect([...secrets.values()]).toEqual(["You are ${x}."]);
  });
});
