import { flushCompileCache } from "node:module";

/**
 * Writes Node's compile cache (enabled by the loader at the top of the bundled file) to disk now.
 * Node writes it when a process exits normally, and the engine ends its plugins with a signal, so
 * without this the cache would never be written and every start would compile the bundle again.
 * Called once the server is up and again once the kinds are loaded, so the cache also holds the
 * functions compiled by then.
 */
export function persistCompileCache(): void {
  try {
    flushCompileCache?.();
  } catch {
    // A cache that cannot be written only costs the next start its compile time.
  }
}
