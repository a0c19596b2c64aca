// The Pulumi versions this repository builds and tests with, read from versions.json (the one
// place they are written; test/repo/versions.test.ts checks the files npm and go read agree).
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const VersionsSchema = z.object({
  /** The Pulumi CLI: pkg/v3 and sdk/v3 of tools/pulumi/go.mod. */
  cli: z.string(),
  /** @pulumi/pulumi: the repository's own, and the newest the consumer tests install. */
  nodejs: z.string(),
  /** `pulumi` on PyPI, in .tools/python. */
  python: z.string(),
  /** sdk/v3 of the Go SDK and the Go examples. */
  go: z.string(),
  /** pulumi-language-yaml (pulumi-yaml). */
  yaml: z.string(),
});

/** versions.json, at the repository root. */
export const VERSIONS_FILE = path.resolve(import.meta.dirname, "../../versions.json");

/** Every Pulumi version the repository pins, by role. */
export const VERSIONS = VersionsSchema.parse(JSON.parse(readFileSync(VERSIONS_FILE, "utf8")));
