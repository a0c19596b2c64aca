// A release folder as the Pulumi CLI meets it: a static server on 127.0.0.1 (port 0) answering
// GET /<file> from the folder and counting every request, and the environment that makes the CLI
// download from it: PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES rewriting the SDKs' download URL, an empty
// PULUMI_HOME, automatic plugin installation allowed. Plus a PATH without some commands (`node`).
import { createReadStream, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** A running release server. */
export interface ReleaseServer {
  url: string;
  /** The path of every request received, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the top-level files of `dir`; anything else is a 404 (and still counted). */
export async function startReleaseServer(dir: string): Promise<ReleaseServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(urlPath);
    const file = path.join(dir, path.basename(urlPath));
    if (req.method !== "GET" || path.dirname(urlPath) !== "/" || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The download URL the SDKs name (the project's GitHub releases), as the overrides' regexp matches it. */
const OURS = String.raw`^https://github\.com/pulumi-voiceagent/pulumi-voiceagent/releases/download/`;

/**
 * The environment of a CLI that installs plugins from `server` into the empty `home`. Only the
 * download URL the SDKs should name goes to the server's root; any other (an SDK naming none,
 * or the wrong one) goes to its /elsewhere, which answers 404 and is counted, never off this machine.
 */
export function downloadEnv(server: ReleaseServer, home: string): Record<string, string> {
  mkdirSync(home, { recursive: true });
  return {
    PULUMI_HOME: home,
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `${OURS}=${server.url},.*=${server.url}/elsewhere`,
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
  };
}

/** The plugin folders installed in a PULUMI_HOME (`resource-voiceagent-v0.4.0`, ...), without the CLI's lock and partial files. */
export function installedPlugins(home: string): string[] {
  const dir = path.join(home, "plugins");
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => statSync(path.join(dir, f)).isDirectory())
        .sort()
    : [];
}

/**
 * `PATH` with every folder that holds one of `names` replaced by a folder of links to everything
 * else in it (python3, go and git stay reachable: /usr/bin holds a node on this machine).
 */
export function pathWithout(names: readonly string[], pathVar: string, scratch: string): string {
  return pathVar
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir, i) => {
      if (!names.some((n) => existsSync(path.join(dir, n)))) return dir;
      const shadow = path.join(scratch, `path-${i}`);
      mkdirSync(shadow, { recursive: true });
      for (const name of readdirSync(dir))
        if (!names.includes(name) && !existsSync(path.join(shadow, name)))
          symlinkSync(path.join(dir, name), path.join(shadow, name));
      return shadow;
    })
    .join(path.delimiter);
}
