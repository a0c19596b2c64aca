// Packs the provider (and the policy pack) once per test run (vitest globalSetup) and hands the tarball's path to every
// test file through inject("providerTarball"): the consumer, example, template and upgrade tests
// all install exactly what `npm pack` ships.
import type { TestProject } from "vitest/node";
import { packProvider } from "../helpers/consumer.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Absolute path of pulumi-voiceagent-<version>.tgz, packed from this checkout. */
    providerTarball: string;
    /** Absolute path of pulumi-voiceagent-policy-<version>.tgz, the policy pack, packed from this checkout. */
    policyTarball: string;
  }
}

/** Packs (or reuses the tarball of identical content) and provides its path. */
export default async function setup(project: TestProject): Promise<void> {
  const started = performance.now();
  const tarball = await packProvider();
  console.log(`pulumi-voiceagent tarball ${tarball} (${Math.round(performance.now() - started)} ms)`);
  project.provide("providerTarball", tarball);
  const policy = await packProvider(undefined, { folder: "policy", name: "pulumi-voiceagent-policy" });
  project.provide("policyTarball", policy);
}
