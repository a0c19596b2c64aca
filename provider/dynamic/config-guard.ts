import * as pulumi from "@pulumi/pulumi";
import { NOTHING_SENT } from "../resources/kit/failure.js";
import { configProblems } from "../resources/kit/guard.js";
import { PROGRAM_HOST } from "./program.js";

/**
 * Throws the stack config's problems (kit/guard.ts configProblems) as one RunError, a line each
 * saying nothing was sent: the CLI prints a RunError without a stack trace, as the native
 * plugin's refusal is. The dynamic entry's, run in the program before anything registers.
 */
export function refuseBadConfig(): void {
  const problems = configProblems(PROGRAM_HOST);
  if (problems.length) throw new pulumi.RunError(problems.map((p) => `${p}; ${NOTHING_SENT}`).join("\n"));
}
