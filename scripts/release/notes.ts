// The release notes: CHANGELOG.md's section for the version, then the plugin archives' sizes.

/** One archive's name and size. */
export interface Sized {
  name: string;
  bytes: number;
}

/** The text of `## <version>` in the changelog (up to the next `## `), or an error naming the version. */
export function changelogSection(changelog: string, version: string): string {
  const lines = changelog.split("\n");
  const start = lines.findIndex((l) => new RegExp(`^## \\[?v?${version.replaceAll(".", "\\.")}\\]?(\\s|$)`).test(l));
  if (start < 0) throw new Error(`CHANGELOG.md has no "## ${version}" section: write it before releasing`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join("\n")
    .trim();
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The notes' Markdown. */
export function releaseNotes(
  changelog: string,
  version: string,
  archives: readonly Sized[],
  skipped: readonly string[],
): string {
  const table = archives.map((a) => `| \`${a.name}\` | ${mib(a.bytes)} |`);
  return [
    changelogSection(changelog, version),
    "",
    "### Plugin archives",
    "",
    "The Pulumi CLI downloads the one for its platform on the first `pulumi up`; each holds one executable with Node.js inside.",
    "",
    "| Archive | Size |",
    "| --- | --- |",
    ...table,
    ...(skipped.length ? ["", "Not built by this run:", "", ...skipped.map((s) => `- ${s}`)] : []),
    "",
  ].join("\n");
}
