/**
 * Fails fast when the program's @pulumi/pulumi is outside the range this package supports. The
 * entries a program loads (the root and `native`) import this module first, so the check runs
 * before any resource is registered and before any request could reach the service; nothing else
 * imports it (the `voiceagent` command runs where no @pulumi/pulumi is installed). The range is
 * our own package.json's (own-manifest.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { VoiceAgentError } from "./voiceagent-error.js";
import { field, ownManifest, parseVersion, satisfies, type SupportedRange } from "./own-manifest.js";

export { ownManifest, parseRange, parseVersion, satisfies, type SupportedRange, type Version } from "./own-manifest.js";

/**
 * Shown by the Pulumi runtime as its message alone, without a stack trace: `__pulumiRunError` is
 * how @pulumi/pulumi recognises its RunError across copies of the SDK, and we must not load the
 * very SDK whose version we are refusing in order to construct one.
 */
export class UnsupportedPulumiError extends VoiceAgentError {
  override readonly name = "UnsupportedPulumiError";
  readonly code = "E_PULUMI_VERSION";
  /** Refused before any resource registered: nothing was sent. */
  readonly mayHaveActed = false;
  readonly __pulumiRunError = true;
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

function isModuleNotFound(err: unknown): boolean {
  return field(err, "code") === "MODULE_NOT_FOUND";
}

assertSupportedPulumi();
