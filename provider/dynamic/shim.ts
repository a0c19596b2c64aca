import type * as pulumi from "@pulumi/pulumi";

/**
 * The provider object Pulumi serializes into state for one kind. Its text is stored twice per
 * resource (inputs and outputs), sent in every call, and rewritten with every checkpoint, so it is
 * one small function: `configure`, which the dynamic host calls once per process and text before
 * any other method (it caches the deserialized provider by text), and which installs the six
 * methods on the object before it returns. Each forwards to `dispatchFor(kind, config)`, imported by
 * the package's own name (a relative import would resolve against the provider process's working
 * directory), so a failed import fails every call rather than leaving a method missing, which the
 * host would read as "no check". The installed methods capture nothing: the serializer writes one
 * function per captured function, with about 200 characters of scaffolding each.
 *
 * Every text ever written must keep working: 0.1.0–0.4.0 wrote one method per call that calls
 * `runtimeFor(kind)[method](settings, ...args)` (dynamic/runtimes.ts keeps it), and diff ignores
 * the recorded provider text (dynamic/migration.ts), so a new text never shows as a change. Plain
 * syntax only: @pulumi/pulumi before 3.2xx parses this text with TypeScript 3.8 (no `??=`).
 */
export function providerShim(kind: string): pulumi.dynamic.ResourceProvider {
  const shim: Pick<pulumi.dynamic.ResourceProvider, "configure"> = {
    async configure(req) {
      const d = import("pulumi-voiceagent/providers").then((p) => p.dispatchFor(kind, req.config));
      for (const k of ["check", "diff", "create", "read", "update", "delete"])
        Reflect.set(this, k, (...a: unknown[]) => d.then((call) => call(k, a)));
    },
  };
  // The methods exist from `configure` on, which the host calls before any of them: a type cannot say so.
  return shim as pulumi.dynamic.ResourceProvider;
}
