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

/** A property as the package schema writes it. */
interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
}

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

  it("show every nested input of the schema (an object type or a map) in each language, with its type in Python and Go", () => {
    const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider", "schema.json"), "utf8")) as {
      types: Record<string, { type: string; properties?: unknown }>;
      resources: Record<string, { inputProperties: Record<string, PropertySpec>; isComponent?: boolean }>;
    };
    const objectType = (spec: PropertySpec | undefined) => {
      const name = spec?.$ref?.replace("#/types/voiceagent:index:", "");
      return name && schema.types[`voiceagent:index:${name}`]?.properties ? name : undefined;
    };
    // The Fleet component's one input is the fleet's whole document, which docs/fleet.md shows in each language.
    const kinds = Object.values(schema.resources).filter((r) => !r.isComponent);
    const nested = kinds.flatMap((r) =>
      Object.entries(r.inputProperties).flatMap(([property, spec]) => {
        const type = objectType(spec) ?? objectType(spec.items);
        const map = spec.type === "object" && spec.additionalProperties?.$ref === undefined;
        return type || map ? [{ property, type }] : [];
      }),
    );
    expect(nested.length).toBeGreaterThan(0);
    const [, section] = page("_index.md").split("## Nested settings");
    const choosable = (lang: string) =>
      new RegExp(`\\{\\{% choosable language ${lang} %\\}\\}([^]+?)\\{\\{% /choosable %\\}\\}`).exec(
        section ?? "",
      )?.[1] ?? "";
    const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    for (const { property, type } of nested) {
      expect(choosable("typescript"), property).toContain(`${property}: `);
      expect(choosable("yaml"), property).toContain(`${property}:`);
      expect(choosable("python"), property).toContain(`${snake(property)}=`);
      expect(choosable("go"), property).toMatch(new RegExp(`\\b${pascal(property)}: `));
      if (type) {
        expect(choosable("python"), type).toContain(`voiceagent.${type}Args(`);
        expect(choosable("go"), type).toContain(`&voiceagent.${type}Args{`);
      }
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
