/**
 * `pulumi-resource-voiceagent`: the native provider plugin. The engine runs it with its own
 * address as the last argument (after any `--logtostderr`, `-v=N`, `--tracing <endpoint>` flags:
 * pkg/resource/plugin/plugin.go `buildPluginArguments` in pulumi v3.274.1), reads the port from
 * the first line of stdout, then dials it. Nothing may reach stdout before that line; a failure to
 * start is one line on stderr (the engine shows it when the plugin exits early) and exit code 1.
 * Started by hand (no address), it prints its port and waits: `PULUMI_DEBUG_PROVIDERS=voiceagent:<port>`
 * makes the engine dial it, and Handshake and Attach give it the engine's address
 * (sdk/go/common/resource/plugin/provider_plugin.go `NewProvider`; docs/development.md).
 */
import { ProviderFailure } from "./protocol.js";
import { ENGINE_ADDRESS } from "../coordination/deployment.js";
import { Host } from "../host.js";
import { pluginVersion, schemaText } from "./embedded.js";
import { persistCompileCache } from "./compile-cache.js";
import { credentials } from "@grpc/grpc-js";
import { engineErrors, engineLog } from "../engine-log.js";
import { listen } from "./grpc.js";
import { plainProvider } from "./plain-provider.js";

/**
 * The engine's address: the last argument that is neither a flag nor a flag's value; none when
 * run without one (notes then go to stderr). Anything but `host:port` means the plugin was not
 * started by the engine.
 */
export function engineAddress(argv: readonly string[]): string | undefined {
  const last = argv.at(-1);
  if (!last || last.startsWith("-") || argv.at(-2) === "--tracing") return undefined;
  if (!ENGINE_ADDRESS.test(last)) {
    throw new ProviderFailure(
      `"${last}" is not the engine's address (host:port): this plugin is started by the Pulumi CLI (pulumi up, preview, ` +
        "import...), not by hand; nothing was sent to the service",
      undefined,
      "E_STARTED_BY_HAND",
      false,
    );
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
  // Where notes go: the engine's log once there is an engine (from the command line, or from
  // Handshake/Attach when started by hand), else stderr. Attached, each deployment's engine
  // (a preview, then an up) names itself anew.
  let engine = address;
  // The engine listens without TLS on loopback; the bundle's own grpc-js makes the credentials.
  const channel = credentials.createInsecure();
  let log = address ? engineLog(address, channel) : undefined;
  // Errors shown under a resource (a partial create's message, plugin/grpc.ts `shownPartial`).
  let errors = address ? engineErrors(address, channel) : undefined;
  const toStderr = async (text: string) => {
    process.stderr.write(`${text}\n`);
  };
  // The process's one host (provider/host.ts): its clients, ledgers, claims, notes and redaction.
  const host = new Host({ notes: (text, urn) => (log ? log(text, urn) : toStderr(text)) });
  // The engine runs one plugin process per provider instance: what this deployment's other
  // processes know (declared numbers, each account's creates), this one knows too. A plugin
  // started by hand is no child of the engine, so it cannot tell which folder its siblings share
  // (coordination/deployment.ts keys it by the engine's process): it coordinates in memory only.
  if (address) host.join(address);
  const onEngine = (at: string) => {
    if (at === engine) return;
    engine = at;
    log = engineLog(at, channel);
    errors = engineErrors(at, channel);
  };
  const port = await listen(
    plainProvider({ version: pluginVersion(), schema: schemaText() }, host),
    onEngine,
    async (text, urn) => (errors ? errors(text, urn) : false),
  );
  process.stdout.write(`${port}\n`);
  setImmediate(persistCompileCache);
}

process.on("uncaughtException", die);
process.on("unhandledRejection", die);
serve(process.argv.slice(2)).catch(die);
