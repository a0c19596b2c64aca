/**
 * `pulumi-resource-voiceagent`: the native provider plugin. The engine runs it with its own
 * address as the last argument (after any `--logtostderr`, `-v=N`, `--tracing <endpoint>` flags:
 * pkg/resource/plugin/plugin.go `buildPluginArguments` in pulumi v3.259.0), reads the port from
 * the first line of stdout, then dials it. Nothing may reach stdout before that line; a failure to
 * start is one line on stderr (the engine shows it when the plugin exits early) and exit code 1.
 */
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import { setNoteSink } from "../resources/kit/notes.js";
import { pluginVersion, schemaText } from "./embedded.js";
import { persistCompileCache } from "./compile-cache.js";
import { engineNoteSink } from "./engine-log.js";
import { providerService } from "./service.js";

/** The largest message the engine sends or accepts (sdk/go/common/util/rpcutil MaxRPCMessageSize: 400 MiB). */
const MAX_MESSAGE = 400 * 1024 * 1024;

/**
 * The engine's address: the last argument that is neither a flag nor a flag's value; none when
 * run without one (notes then go to stderr). Anything but `host:port` means the plugin was not
 * started by the engine.
 */
export function engineAddress(argv: readonly string[]): string | undefined {
  const last = argv.at(-1);
  if (!last || last.startsWith("-") || argv.at(-2) === "--tracing") return undefined;
  if (!/^(\[[0-9A-Fa-f:.]+\]|[^\s:/]+):\d{1,5}$/.test(last)) {
    throw new Error(`"${last}" is not the engine's address (host:port): this plugin is started by the Pulumi CLI (pulumi up, preview, import...), not by hand`);
  }
  return last;
}

/** One line for the user, whatever was thrown. */
function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s*\n\s*/g, " ").trim();
}

function die(err: unknown): never {
  process.stderr.write(`pulumi-resource-voiceagent: ${oneLine(err)}\n`);
  process.exit(1);
}

async function serve(argv: readonly string[]): Promise<void> {
  // Whatever a dependency prints goes to stderr: stdout is the engine's, and its first line is the port.
  console.log = console.info = console.error;
  const address = engineAddress(argv);
  if (address) setNoteSink(engineNoteSink(address));
  const server = new Server({ "grpc.max_receive_message_length": MAX_MESSAGE, "grpc.max_send_message_length": MAX_MESSAGE });
  server.addService(ResourceProviderService, providerService({ version: pluginVersion(), schema: schemaText() }));
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  process.stdout.write(`${port}\n`);
  setImmediate(persistCompileCache);
}

process.on("uncaughtException", die);
process.on("unhandledRejection", die);
serve(process.argv.slice(2)).catch(die);
