// An upgrade fixture: what a released version left behind for the root program, so a later
// version can be checked against it (pulumi/providertest's upgrade test). One folder per release:
//   fixture.json  version, the @pulumi/pulumi it ran with, project, stack, token, passphrase
//   index.ts      the root program of that release (0.4.0's with a PurchasedNumber and a Call added to it
//                 on the release commit before the script ran, so that their state is in an upgrade test too)
//   Pulumi.yaml   its project file, run as TypeScript (optional for 0.1.0: derived when absent)
//   state.json    `pulumi stack export` after `pulumi up`, credentials from the environment
//   service.json  the emulator's users and objects rows at that moment
// Written by scripts/upgrade-fixture.ts, read by test/native/native.test.ts (the upgrade and migration scenarios). Free of vitest.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Store } from "voiceagent-emulator";
import { packageJson, REPO_ROOT, TEMPLATE_TSCONFIG, TS_DEV_DEPENDENCIES } from "../helpers/consumer.js";

/** Where the fixtures live, one folder per released version. */
export const FIXTURES = path.join(REPO_ROOT, "test/upgrade/fixtures");

/** fixture.json. */
export interface FixtureMeta {
  version: string;
  /** The @pulumi/pulumi the program ran with. */
  pulumi: string;
  project: string;
  stack: string;
  /** A throwaway emulator token (not a secret: it only ever opens an in-memory emulator). */
  token: string;
  passphrase: string;
  credentials: "env";
  written: string;
}

/** service.json: the emulator's two tables, row for row. */
export interface ServiceRows {
  users: { token_hash: string; user_id: string; seq: number }[];
  objects: { kind: string; id: string; user_id: string; key: string | null; data: string; created: number }[];
}

/** Reads and checks fixture.json; throws naming the file and field when it is malformed. */
export function readMeta(dir: string): FixtureMeta {
  const file = path.join(dir, "fixture.json");
  const raw: unknown = JSON.parse(readFileSync(file, "utf8"));
  const text = (key: keyof FixtureMeta): string => {
    const v = typeof raw === "object" && raw !== null ? Reflect.get(raw, key) : undefined;
    if (typeof v !== "string" || !v) throw new Error(`${file}: ${key} must be a non-empty string`);
    return v;
  };
  if (text("credentials") !== "env") throw new Error(`${file}: credentials must be "env"`);
  return {
    version: text("version"),
    pulumi: text("pulumi"),
    project: text("project"),
    stack: text("stack"),
    token: text("token"),
    passphrase: text("passphrase"),
    credentials: "env",
    written: text("written"),
  };
}

/** The root Pulumi.yaml of this checkout, made to run index.ts with the Pulumi runtime's TypeScript. */
export function projectFileFromRoot(): string {
  const root = readFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), "utf8");
  const config = root.slice(root.search(/^config:/m) >= 0 ? root.search(/^config:/m) : root.length);
  const name = /^name: (.+)$/m.exec(root)?.[1] ?? "pulumi-voiceagent";
  return `name: ${name}\nruntime: nodejs\nmain: index.ts\n${config}`;
}

/** The files of a project that runs a fixture's program with `pulumi-voiceagent` from `tarball`. */
export function projectFiles(dir: string, meta: FixtureMeta, tarball: string): Record<string, string> {
  const projectFile = path.join(dir, "Pulumi.yaml");
  return {
    "Pulumi.yaml": existsSync(projectFile)
      ? readFileSync(projectFile, "utf8")
      : `name: ${meta.project}\nruntime: nodejs\nmain: index.ts\n`,
    "package.json": packageJson({
      name: meta.project,
      dependencies: { "@pulumi/pulumi": meta.pulumi, "pulumi-voiceagent": `file:${tarball}` },
      devDependencies: TS_DEV_DEPENDENCIES,
    }),
    "tsconfig.json": TEMPLATE_TSCONFIG,
    "index.ts": readFileSync(path.join(dir, "index.ts"), "utf8"),
  };
}

/** Copies service.json's rows into an emulator store (before the emulator is built on it). */
export function loadRows(store: Store, rows: ServiceRows): void {
  const user = store.db.prepare("INSERT INTO users (token_hash, user_id, seq) VALUES (?, ?, ?)");
  const object = store.db.prepare(
    "INSERT INTO objects (kind, id, user_id, key, data, created) VALUES (?, ?, ?, ?, ?, ?)",
  );
  store.db.transaction(() => {
    for (const u of rows.users) user.run(u.token_hash, u.user_id, u.seq);
    for (const o of rows.objects) object.run(o.kind, o.id, o.user_id, o.key, o.data, o.created);
  })();
}

/** The rows of an emulator store, for service.json. */
export function dumpRows(store: Store): ServiceRows {
  return {
    users: store.db
      .prepare<[], ServiceRows["users"][number]>("SELECT token_hash, user_id, seq FROM users ORDER BY seq")
      .all(),
    objects: store.db
      .prepare<[], ServiceRows["objects"][number]>(
        "SELECT kind, id, user_id, key, data, created FROM objects ORDER BY created, kind, id",
      )
      .all(),
  };
}
