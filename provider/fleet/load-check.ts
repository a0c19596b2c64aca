// The fleet check, loaded on first use. It brings zod, which the package's entries otherwise leave to
// the provider processes; a program that declares no Fleet never loads it.

/** The check module (./check.ts), required when first needed. */
export function loadCheck(): typeof import("./check.js") {
  return require("./check.js");
}

/** How entries become resources (./sections.ts), required when first needed: it brings the kinds. */
export function loadSections(): typeof import("./sections.js") {
  return require("./sections.js");
}
