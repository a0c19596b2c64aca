import { createRequire } from "node:module";
import type { PartialCreateError } from "../resources/kit/errors.js";

// The dynamic entry's create runs in the engine's dynamic-provider host (`pulumi-resource-pulumi-
// nodejs`, which starts `@pulumi/pulumi/cmd/dynamic-provider` with the engine's address as its
// argument). That host sends a partial create's `reasons` and drops its message, and the engine
// prints one reason as `1 error occurred: * <reason>` (go-multierror in InitError.Error, pulumi
// v3.274.1). The plugin shows the message through the engine's Log RPC instead (plugin/grpc.ts
// `shownPartial`); the dynamic host does the same with the address it was started with. The host
// gives a create no URN, so the note is the stack's: the message names the kind and what to run.

/** The engine's address when this process is the engine's dynamic-provider host; undefined elsewhere. */
export function dynamicHostEngine(argv: readonly string[] = process.argv): string | undefined {
  const script = argv[1]?.replaceAll("\\", "/") ?? "";
  const address = argv[2];
  if (!/\/cmd\/dynamic-provider(\/index\.js)?$/.test(script) || !address) return undefined;
  return address;
}

/**
 * A partial create as the user should read it from the dynamic entry: its message shown as an
 * error through the engine's log, and sent with no reason (the engine then adds only its own
 * `resource init failed`). Outside the dynamic host, or when the engine does not take the note,
 * the error goes as it is, its message its one reason.
 */
export async function shownOnEngine(
  err: PartialCreateError,
  engine = dynamicHostEngine(),
): Promise<PartialCreateError> {
  // An object made but not read back is finished at the next run only because the engine
  // recorded its reason (`retriedByReasons`): that one keeps it.
  if (!engine || err.retriedByReasons) return err;
  // Loaded only here: only a failing create pays for protobuf. From engine-log.ts, above both
  // entries: the dynamic entry never imports the plugin (test/repo/layers.test.ts).
  const { engineErrors } = await import("../engine-log.js");
  if (!(await engineErrors(engine, engineChannel())(err.message, ""))) return err;
  return err.shownElsewhere();
}

/**
 * Insecure credentials from the grpc-js that @pulumi/pulumi's generated EngineClient loads: this
 * package does not depend on grpc-js (a strict layout such as pnpm's would not resolve it from
 * here), and the client refuses credentials made by another copy of it.
 */
function engineChannel(): import("@grpc/grpc-js").ChannelCredentials {
  const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi/proto/engine_grpc_pb.js"));
  const grpc: typeof import("@grpc/grpc-js") = pulumiRequire("@grpc/grpc-js");
  return grpc.credentials.createInsecure();
}
