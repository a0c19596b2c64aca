/**
 * Fails fast when the program's @pulumi/pulumi is outside the range this package supports. The
 * root entry imports this module first, so the check runs before any resource is registered and
 * before any request could reach the service. The range is read from our own package.json
 * (`peerDependencies`), so the declared range and the enforced one cannot drift apart.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** A version as [major, minor, patch], plus whether it carried a pre-release tag. */
export interface Version {
  core: [number, number, number];
  prerelease: boolean;
}

/** The only range shape we declare: `>=a.b.c <N` (at least a.b.c, below major N). */
export interface SupportedRange {
  min: Version;
  belowMajor: number;
  text: string;
}

/**
 * Shown by the Pulumi runtime as its message alone, without a stack trace: `__pulumiRunError` is
 * how @pulumi/pulumi recognises its RunError across copies of the SDK, and we must not load the
 * very SDK whose version we are refusing in order to construct one.
 */
export class UnsupportedPulumiError extends Error {
  override readonly name = "UnsupportedPulumiError";
  readonly __pulumiRunError = true;
}

/** Parses `3.139.0` or `3.140.0-alpha.1`; undefined for anything else. */
export function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], prerelease: m[4] !== undefined };
}

/** Parses `>=a.b.c <N`; throws for any other shape (a packaging mistake, caught by our tests). */
export function parseRange(text: string): SupportedRange {
  const m = /^>=\s*(\S+)\s+<\s*(\d+)(?:\.0\.0)?$/.exec(text.trim());
  const min = m?.[1] === undefined ? undefined : parseVersion(m[1]);
  if (!m || !min || min.prerelease) {
    throw new Error(
      `pulumi-voiceagent: peerDependencies["@pulumi/pulumi"] must look like ">=3.139.0 <4", not "${text}"`,
    );
  }
  return { min, belowMajor: Number(m[2]), text: text.trim() };
}

/** Whether `found` satisfies the range (a pre-release of the minimum counts as below it). */
export function satisfies(found: Version, range: SupportedRange): boolean {
  if (found.core[0] >= range.belowMajor) return false;
  for (let i = 0; i < 3; i++) {
    const a = found.core[i] ?? 0;
    const b = range.min.core[i] ?? 0;
    if (a !== b) return a > b;
  }
  return !found.prerelease;
}

/**
 * The one-line message for a program whose @pulumi/pulumi (`found`, or undefined when none
 * resolves) is unsupported; undefined when it is supported.
 */
export function unsupportedMessage(
  ours: string,
  range: SupportedRange,
  found: string | undefined,
  where: string,
): string | undefined {
  const prefix = `pulumi-voiceagent ${ours} supports @pulumi/pulumi ${range.text}`;
  const after = "; nothing was registered and no request was sent to the service";
  if (found === undefined) {
    return `${prefix}, but no @pulumi/pulumi resolves from ${where}${after}: run \`npm install @pulumi/pulumi\` in the project`;
  }
  const parsed = parseVersion(found);
  if (parsed && satisfies(parsed, range)) return undefined;
  const fix =
    parsed && parsed.core[0] >= range.belowMajor
      ? `use a pulumi-voiceagent release that supports @pulumi/pulumi ${parsed.core[0]}`
      : `run \`npm install @pulumi/pulumi@^${range.min.core.join(".")}\` (or pnpm add, yarn add) in the project`;
  return `${prefix}, but this program uses @pulumi/pulumi ${found} (${where})${after}: ${fix}`;
}

/**
 * Our own version and supported @pulumi/pulumi range, from the package.json we ship: the nearest
 * one named pulumi-voiceagent above `from` (dist/ when installed, the source folder in our tests).
 */
export function ownManifest(from: string = __dirname): { version: string; range: SupportedRange } {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    const manifest: unknown = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
    if (field(manifest, "name") === "pulumi-voiceagent") {
      const version = field(manifest, "version");
      const range = field(field(manifest, "peerDependencies"), "@pulumi/pulumi");
      if (typeof version !== "string" || typeof range !== "string") {
        throw new Error(`pulumi-voiceagent: ${file} lacks a version or a @pulumi/pulumi peer range`);
      }
      return { version, range: parseRange(range) };
    }
    if (path.dirname(dir) === dir) throw new Error(`pulumi-voiceagent: no package.json of ours above ${from}`);
  }
}

/** Throws UnsupportedPulumiError unless the @pulumi/pulumi that resolves from `from` is supported. */
export function assertSupportedPulumi(from: string = __dirname): void {
  const { version, range } = ownManifest();
  let found: string | undefined;
  let where = from;
  try {
    const manifestPath = createRequire(path.join(from, "noop.js")).resolve("@pulumi/pulumi/package.json");
    where = path.dirname(manifestPath);
    const v = field(JSON.parse(readFileSync(manifestPath, "utf8")), "version");
    found = typeof v === "string" ? v : "(no version)";
  } catch (err) {
    if (!isModuleNotFound(err)) throw err;
  }
  const message = unsupportedMessage(version, range, found, where);
  if (message) throw new UnsupportedPulumiError(message);
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

function isModuleNotFound(err: unknown): boolean {
  return field(err, "code") === "MODULE_NOT_FOUND";
}

assertSupportedPulumi();
