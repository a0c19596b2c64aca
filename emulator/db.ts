import { createHash, randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import type { CollectionName } from "pulumi-voiceagent/schemas";

/**
 * The emulator's tables: each holds one sort of object the service stores (the service's word for
 * the same objects is the collection, `agents`...). There is one per collection of the wire layer's
 * collection table, named by the collection less its plural s ("agents" -> "agent"), so a
 * collection added to the table is stored with no code here. All are rows of the one SQLite table
 * `objects`, told apart by its `kind` column, a name kept so a store file an earlier emulator wrote
 * still opens.
 */
export type TableOf<C extends CollectionName> = C extends `${infer S}s` ? S : never;
/** Every table of the emulator: one per collection. */
export type Table = TableOf<CollectionName>;
/** @deprecated The former name of {@link Table}. */
export type Kind = Table;

/** The table collection `c`'s objects are stored in. */
export function tableOf<C extends CollectionName>(c: C): TableOf<C> {
  const table = c.replace(/s$/, "");
  // The same rule as TableOf, which TypeScript cannot run on a string at run time.
  return table as TableOf<C>;
}

/** A stored row: the object's own fields as JSON, plus its identity and owner. */
export interface Row<T> {
  id: string;
  userId: string;
  data: T;
}

/**
 * The emulator's storage: SQLite through better-sqlite3 in WAL mode. One SQL table of objects keyed by
 * (table, id), with an optional unique key per table (a number's E.164 string). In memory by
 * default; with a path, a write that was answered survives a restart and `kill -9` (WAL with
 * synchronous=NORMAL loses nothing on a process crash, only on a power loss).
 */
export class Store {
  readonly db: Database.Database;
  private readonly stmts;
  /** Told of every object stored anew (the emulator's answer modes: a lagging list). */
  private readonly inserted: ((table: Table, id: string, userId: string) => void)[] = [];

  constructor(path = ":memory:") {
    this.db = new Database(path);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS users (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL UNIQUE,
        seq INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS objects (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        key TEXT,
        data TEXT NOT NULL,
        created INTEGER NOT NULL,
        PRIMARY KEY (kind, id)
      );
      CREATE UNIQUE INDEX IF NOT EXISTS objects_key ON objects (kind, key) WHERE key IS NOT NULL;
      CREATE INDEX IF NOT EXISTS objects_owner ON objects (kind, user_id, created);
    `);
    this.stmts = {
      userByHash: this.db.prepare<[string], { user_id: string; seq: number }>(
        "SELECT user_id, seq FROM users WHERE token_hash = ?",
      ),
      userCount: this.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM users"),
      insertUser: this.db.prepare("INSERT INTO users (token_hash, user_id, seq) VALUES (?, ?, ?)"),
      get: this.db.prepare<[string, string, string], { data: string }>(
        "SELECT data FROM objects WHERE kind = ? AND id = ? AND user_id = ?",
      ),
      getByKey: this.db.prepare<[string, string], { id: string; user_id: string; data: string }>(
        "SELECT id, user_id, data FROM objects WHERE kind = ? AND key = ?",
      ),
      insert: this.db.prepare("INSERT INTO objects (kind, id, user_id, key, data, created) VALUES (?, ?, ?, ?, ?, ?)"),
      update: this.db.prepare("UPDATE objects SET data = ? WHERE kind = ? AND id = ? AND user_id = ?"),
      list: this.db.prepare<[string, string, number, number], { id: string; data: string }>(
        "SELECT id, data FROM objects WHERE kind = ? AND user_id = ? ORDER BY created, rowid LIMIT ? OFFSET ?",
      ),
      all: this.db.prepare<[string, string], { id: string; data: string }>(
        "SELECT id, data FROM objects WHERE kind = ? AND user_id = ? ORDER BY created, rowid",
      ),
      count: this.db.prepare<[string, string], { n: number }>(
        "SELECT COUNT(*) AS n FROM objects WHERE kind = ? AND user_id = ?",
      ),
    };
  }

  /**
   * The user a token belongs to, created on first sight. Only a hash of the token is stored.
   * `seq` numbers users in order of creation (the seed uses it for distinct phone numbers).
   */
  userFor(token: string): { userId: string; seq: number } {
    const hash = createHash("sha256").update(token).digest("hex");
    const found = this.stmts.userByHash.get(hash);
    if (found) return { userId: found.user_id, seq: found.seq };
    const seq = (this.stmts.userCount.get()?.n ?? 0) + 1;
    const userId = randomUUID();
    this.stmts.insertUser.run(hash, userId, seq);
    return { userId, seq };
  }

  /** The object of `table` with `id` owned by `userId`, or undefined: other users' ids do not exist. */
  get<T>(table: Table, userId: string, id: string): T | undefined {
    const row = this.stmts.get.get(table, id, userId);
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  /** The object of `table` with unique `key`, whoever owns it. */
  getByKey<T>(table: Table, key: string): Row<T> | undefined {
    const row = this.stmts.getByKey.get(table, key);
    return row ? { id: row.id, userId: row.user_id, data: JSON.parse(row.data) as T } : undefined;
  }

  /** Stores a new object. */
  insert<T extends { id: string; user_id: string }>(table: Table, obj: T, key: string | null = null): T {
    this.stmts.insert.run(table, obj.id, obj.user_id, key, JSON.stringify(obj), Date.now());
    for (const told of this.inserted) told(table, obj.id, obj.user_id);
    return obj;
  }

  /** Replaces a stored object. */
  update<T extends { id: string; user_id: string }>(table: Table, obj: T): T {
    this.stmts.update.run(JSON.stringify(obj), table, obj.id, obj.user_id);
    return obj;
  }

  /** One page of a user's objects of `table`, oldest first. */
  list<T>(table: Table, userId: string, page: number, size: number): { items: T[]; total: number } {
    const rows = this.stmts.list.all(table, userId, size, (page - 1) * size);
    const total = this.stmts.count.get(table, userId)?.n ?? 0;
    return { items: rows.map((r) => JSON.parse(r.data) as T), total };
  }

  /** Every one of a user's objects of `table`, oldest first. */
  all<T>(table: Table, userId: string): T[] {
    return this.stmts.all.all(table, userId).map((r) => JSON.parse(r.data) as T);
  }

  /** Calls `told` with each object stored from now on. */
  onInsert(told: (table: Table, id: string, userId: string) => void): void {
    this.inserted.push(told);
  }

  /** Runs `fn` in one transaction. */
  tx<R>(fn: () => R): R {
    return this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }
}
