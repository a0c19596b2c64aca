// The fleet check, loaded on first use. It brings zod, which the package's entries otherwise leave to
// the provider processes; a program that declares no Fleet never loads it.

/** The check module (./check.ts), required when first needed. */
export function loadCheck(): typeof import("./check.js") {
  return require("./check.js");
}
