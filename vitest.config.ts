import { defineConfig } from "vitest/config";
import SlowestFirst from "./test/slowest-first.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: [
      "test/install-seeds-setup.ts",
      "test/global-setup.ts",
      "test/consumer/pack-setup.ts",
      "test/release/release-setup.ts",
    ],
    // A test file's processes (the CLI, language hosts, plugins, emulators) die with it, also when
    // vitest is interrupted (test/helpers/orphans.ts).
    setupFiles: ["test/reap-setup.ts"],
    // End-to-end tests drive the real Pulumi CLI: minutes, not milliseconds, on 2 shared cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    // The slow end-to-end files first on a fresh clone (test/slowest-first.ts): no long file left to
    // run alone at the end.
    sequence: { sequencer: SlowestFirst },
    reporters: ["default"],
    server: {
      deps: {
        // The workspace packages' builds are loaded by Node as they ship (the provider is CommonJS),
        // not transformed: tests see what users get.
        external: [/\/provider\/dist\//, /\/emulator\/dist\//],
      },
    },
  },
});
