/**
 * This package's own manifest: its version and the @pulumi/pulumi range it supports, read from the
 * package.json it ships (`peerDependencies`), so the declared range and the enforced one cannot
 * drift apart. Loading this checks nothing: the `voiceagent` command and the plugin read the
 * version here without @pulumi/pulumi; the entries a program loads check the range
 * (version-check.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { VoiceAgentError } from "./voiceagent-error.js";

/**
 * The package's own manifest is not as published (a packaging mistake, or an install edited by
 * hand): found before any resource registers, so nothing was sent.
 */
export class BrokenInstallError extends VoiceAgentError {
  override readonly name = "BrokenInstallError";
  readonly code = "E_INSTALL";
  readonly mayHaveActed = false;
  constructor(problem: string) {
    super(`${problem}; nothing was sent to the service: reinstall pulumi-voiceagent (npm install pulumi-voiceagent)`);
  }
}

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
    throw new BrokenInstallError(
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
        throw new BrokenInstallError(`pulumi-voiceagent: ${file} lacks a version or a @pulumi/pulumi peer range`);
      }
      return { version, range: parseRange(range) };
    }
    if (path.dirname(dir) === dir)
      throw new BrokenInstallError(`pulumi-voiceagent: no package.json of ours above ${from}`);
  }
}

/** A property of a JSON value, or undefined. */
export function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}
