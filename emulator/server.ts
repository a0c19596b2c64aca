import { buildEmulator } from "./app.js";
import type { Emulator, EmulatorOptions } from "./options.js";

/** A listening emulator. */
export interface RunningEmulator extends Emulator {
  /** e.g. http://127.0.0.1:43817: what voiceagent:baseUrl should be. */
  url: string;
  close(): Promise<void>;
}

/**
 * Builds the emulator and listens: on 127.0.0.1 and a free port unless told otherwise.
 * @example
 * const emu = await startEmulator({ tokens: ["t"], seed: true });
 * // ... use emu.url ...
 * await emu.close();
 */
export async function startEmulator(
  opts: EmulatorOptions & { host?: string; port?: number },
): Promise<RunningEmulator> {
  const emu = await buildEmulator(opts);
  const host = opts.host ?? "127.0.0.1";
  await emu.app.listen({ host, port: opts.port ?? 0 });
  const address = emu.app.server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return { ...emu, url: `http://${shownHost}:${port}`, close: () => emu.app.close() };
}
