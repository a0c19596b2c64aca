// Every link of the README, ARCHITECTURE.md and the pages under docs/ leads somewhere: a relative
// link to a file that exists, a #anchor to a heading of the page it names (issue 34 item 7: the
// README became a front door over a user guide, and moved text must not leave dead links). And
// docs/README.md, which says who each page is for, names every page.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The Markdown files whose links are checked: the front door, the architecture and every docs/ page. */
function pages(root: string): string[] {
  const docs = path.join(root, "docs");
  return [
    ...["README.md", "ARCHITECTURE.md"].map((f) => path.join(root, f)).filter((f) => existsSync(f)),
    ...readdirSync(docs)
      .filter((f) => f.endsWith(".md"))
      .map((f) => path.join(docs, f)),
  ];
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/**
 * The anchors GitHub gives a page's headings: lower case, punctuation dropped (inline code marks
 * included), spaces to hyphens; a repeated one gets -1, -2... (as github-slugger does).
 */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text = ""] of prose(markdown.replace(/`([^`\n]*)`/g, "$1")).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** True for a page in the Pulumi Registry's format: it opens with front matter. */
function isRegistryPage(text: string): boolean {
  return text.startsWith("---\n");
}

/** Each link of the page that leads nowhere, as "page: target (why)", paths relative to `root`. */
function deadLinks(root: string, files: string[]): string[] {
  const dead: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const [, target = ""] of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: — not ours to check offline
      const [where = "", anchor] = target.split("#");
      const resolved = where ? path.resolve(path.dirname(file), decodeURIComponent(where)) : file;
      // The Registry's pages (front matter, docs/_index.md) link to each other as the site serves
      // them, without ".md": such a link leads to the page of that name.
      const registryPage = isRegistryPage(text) && !path.extname(resolved) && existsSync(`${resolved}.md`);
      const linked = registryPage ? `${resolved}.md` : resolved;
      const name = `${path.relative(root, file)}: ${target}`;
      if (!existsSync(linked)) dead.push(`${name} (no such file)`);
      else if (anchor !== undefined && !anchorsOf(readFileSync(linked, "utf8")).has(anchor))
        dead.push(`${name} (no such heading)`);
    }
  }
  return dead;
}

describe("links in the README and docs/", () => {
  it("a dead file link and a dead anchor are found (a fixture with one of each, and good ones)", () => {
    const fixture = path.join(ROOT, "test/repo/fixtures/links");
    expect(deadLinks(fixture, pages(fixture))).toEqual([
      "README.md: docs/missing.md (no such file)",
      "docs/guide.md: ../README.md#no-such-section (no such heading)",
    ]);
  });

  it("every link of README.md, ARCHITECTURE.md and docs/*.md leads to a file and heading that exist", () => {
    const files = pages(ROOT);
    expect(files.length).toBeGreaterThan(10);
    expect(deadLinks(ROOT, files)).toEqual([]);
  });

  it("docs/README.md names every page of docs/, and the README links to docs/README.md", () => {
    const index = readFileSync(path.join(ROOT, "docs/README.md"), "utf8");
    const linked = new Set([...prose(index).matchAll(/\]\(([^)#]+)/g)].map(([, t]) => t));
    const unlisted = readdirSync(path.join(ROOT, "docs")).filter(
      (f) => f.endsWith(".md") && f !== "README.md" && !linked.has(f),
    );
    expect(unlisted).toEqual([]);
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain("](docs/README.md)");
  });

  it("the README is a front door: at most 250 lines", () => {
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(250);
  });
});
