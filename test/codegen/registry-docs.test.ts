// The Pulumi Registry's pages of this package (docs/_index.md, docs/installation-configuration.md):
// in the Registry's format (front matter with title, meta_desc and `layout: package`; the example
// in each language the Registry shows), and a configuration table that says what the provider
// declares: every setting of kit/setting-docs.ts once, with its environment variable, whether it is
// secret and its default, and nothing else.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SETTINGS } from "../../provider/resources/kit/setting-docs.js";
import { REPO_ROOT } from "../helpers/consumer.js";

const page = (name: string) => readFileSync(path.join(REPO_ROOT, "docs", name), "utf8");

/** The front matter of a page: the YAML between the first two `---` lines. */
function frontMatter(text: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new Error("no front matter");
  return parse(m[1] ?? "") as Record<string, unknown>;
}

describe("the Registry's pages", () => {
  it("have the Registry's front matter", () => {
    for (const name of ["_index.md", "installation-configuration.md"]) {
      const fm = frontMatter(page(name));
      expect(fm.layout, name).toBe("package");
      expect(String(fm.title), name).toMatch(/^Voice Agent/);
      expect(String(fm.meta_desc).length, name).toBeGreaterThan(40);
    }
  });

  it("show the example in TypeScript, Python, Go and YAML", () => {
    const text = page("_index.md");
    expect(text).toContain('{{< chooser language "typescript,python,go,yaml" >}}');
    for (const [lang, fence] of [
      ["typescript", "typescript"],
      ["python", "python"],
      ["go", "go"],
      ["yaml", "yaml"],
    ]) {
      expect(text).toMatch(
        new RegExp(
          `\\{\\{% choosable language ${lang} %\\}\\}\\n\\n\`\`\`${fence}\\n[^]+?\`\`\`\\n\\n\\{\\{% /choosable %\\}\\}`,
        ),
      );
    }
  });

  it("say how to install the package in each language and the plugin", () => {
    const text = page("installation-configuration.md");
    for (const line of [
      "npm install pulumi-voiceagent",
      "pip install pulumi-voiceagent",
      "go get github.com/pulumi-voiceagent/pulumi-voiceagent/sdk@v",
      "pulumi plugin install resource voiceagent",
    ])
      expect(text).toContain(line);
    expect(text).toMatch(/^\* YAML: /m);
  });

  it("list every setting the provider declares, with its environment variable, secrecy and default, and nothing else", () => {
    const rows = [
      ...page("installation-configuration.md").matchAll(
        /^\| `voiceagent:(\w+)` \| `(\w+)` \| (yes|no) \| ([^|]+) \|/gm,
      ),
    ].map(([, name, env, secret, dflt]) => ({ name, env, secret: secret === "yes", default: dflt?.trim() }));
    expect(rows).toEqual(
      SETTINGS.map((s) => ({
        name: s.name,
        env: s.env,
        secret: s.secret === true,
        // A default is written as code; an unset one as "(none...)".
        default: s.default === undefined ? expect.stringMatching(/^\(none/) : `\`${s.default}\``,
      })),
    );
  });
});
