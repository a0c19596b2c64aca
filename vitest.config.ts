import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: [
      "test/install-seeds-setup.ts",
      "test/global-setup.ts",
      "test/consumer/pack-setup.ts",
      "test/release/release-setup.ts",
    ],
    // End-to-end tests drive the real Pulumi CLI: minutes, not milliseconds, on 2 shared cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
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
