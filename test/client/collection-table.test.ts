// A collection is one entry in one table (issue 35): the client's namespaces and pagers, the
// emulator's routes and the CLI's account are derived from the wire layer's collection table
// (provider/schemas/collections.ts) and the kinds' words (resources/kinds/collection-words.ts).
// These checks walk the table, so an entry whose consumers do not follow it fails here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient, isRouteMissing, type TableCollectionName } from "pulumi-voiceagent/client";
import {
  COLLECTION_NAMES,
  collections,
  SECRET_WIRE_FIELDS,
  servedIn,
  type WireGeneration,
} from "pulumi-voiceagent/schemas";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { emptyAccount, readAccount } from "../../provider/cli/account.js";
import { COLLECTION_WORDS, type AccountCollection } from "../../provider/resources/kinds/collection-words.js";
import { httpRequest } from "../helpers/emulator.js";

const TOKEN = "collection-table-token";
const emulators = new Map<WireGeneration, RunningEmulator>();

beforeAll(async () => {
  emulators.set("2023", await startEmulator({ tokens: [TOKEN], seed: true }));
  emulators.set("2024", await startEmulator({ tokens: [TOKEN], seed: true, api: "2024" }));
});
afterAll(async () => {
  for (const e of emulators.values()) await e.close();
});

const worded = Object.keys(COLLECTION_WORDS).filter((c): c is AccountCollection => c in COLLECTION_WORDS);

/** The ids the emulator's own list route answers for collection `c` (first page of 100), or the status. */
async function listedIds(emu: RunningEmulator, c: string): Promise<string[] | number> {
  const res = await httpRequest(emu.url, "GET", `/v1/${c}/list?page=1&size=100`, TOKEN);
  if (res.status !== 200) return res.status;
  return (res.json.items as { id: string }[]).map((i) => i.id);
}

describe("every collection of the wire table", () => {
  it("names the secret fields secrets.ts lists for it", () => {
    for (const c of COLLECTION_NAMES) {
      expect(collections[c].secrets, c).toEqual(c in SECRET_WIRE_FIELDS ? Reflect.get(SECRET_WIRE_FIELDS, c) : []);
    }
  });

  it("has a client namespace whose pages the emulator serves in each generation that has it, and 404s in the other", async () => {
    expect(COLLECTION_NAMES.length).toBeGreaterThanOrEqual(9);
    for (const [generation, emu] of emulators) {
      const client = createClient({ baseUrl: emu.url, token: TOKEN, api: generation });
      for (const c of COLLECTION_NAMES) {
        const where = `${c} on the ${generation} dialect`;
        expect(client[c].list, where).toBe(client.lists[c]);
        const answer = await client[c].list.page(1, 1).then(
          (page) => ({ page }),
          (err: unknown) => ({ err }),
        );
        if (servedIn(collections[c], generation)) {
          expect("page" in answer && answer.page.page, where).toBe(1);
        } else {
          const err = "err" in answer ? answer.err : undefined;
          expect(err instanceof ApiError && err.status, where).toBe(404);
          expect(isRouteMissing(err), where).toBe(true);
        }
      }
    }
  });

  it("that an account holds has words for people and is read by the CLI's account (a call is placed, never held)", async () => {
    expect(COLLECTION_NAMES.filter((c) => !(c in COLLECTION_WORDS))).toEqual(["calls"]);
    expect(Object.keys(emptyAccount()).sort()).toEqual([...worded, "gaps"].sort());
    const emu24 = emulators.get("2024")!;
    // One object of each collection only the current API has, so that its listing has something to show.
    const made = [
      ["prompts", { content: "You are the front desk." }],
      ["vector_databases", { index: "faq", api_key: "pk-table", api_environment: "us-east" }],
      ["account_connections", { type: "account_connection_openai", credentials: { openai_api_key: "sk-table" } }],
    ] as const;
    for (const [c, body] of made) {
      const res = await httpRequest(emu24.url, "POST", `/v1/${c}/create`, TOKEN, body);
      expect(res.status, `${c}: ${JSON.stringify(res.json)}`).toBe(200);
    }
    for (const [generation, emu] of emulators) {
      const { account } = await readAccount({ baseUrl: emu.url, token: TOKEN }, worded);
      expect(account.gaps).toEqual({});
      for (const c of worded) {
        const where = `${c} on the ${generation} dialect`;
        const listed = await listedIds(emu, c);
        // A collection the service lacks (404) is an account holding none of it, not a failure.
        const expected = typeof listed === "number" ? [] : listed;
        if (typeof listed === "number") expect(servedIn(collections[c], generation), where).toBe(false);
        expect(
          account[c].map((o) => o.id),
          where,
        ).toEqual(expected);
      }
    }
    for (const [c] of made) expect((await listedIds(emu24, c)) as string[]).toHaveLength(1);
  });
});

/** One object of each collection whose calls the table derives, and a change to it. */
const samples = {
  prompts: { create: { content: "You are the front desk." }, update: { content: "You are the night desk." } },
  vector_databases: {
    create: { index: "faq", api_key: "pk-sample", api_environment: "us-east" },
    update: { index: "faq-2" },
  },
  account_connections: {
    create: { type: "account_connection_openai", credentials: { openai_api_key: "sk-sample" } },
    update: { type: "account_connection_openai", credentials: { openai_api_key: "sk-sample-2" } },
  },
} as const satisfies Record<TableCollectionName, { create: object; update: object }>;

describe("a collection only the current API has", () => {
  it("gets the client's get, create, update and list from its table entry, with no code of its own", async () => {
    // An account of its own: the other tests' objects are not in its lists.
    const emu24 = await startEmulator({ tokens: [TOKEN], api: "2024" });
    const client = createClient({ baseUrl: emu24.url, token: TOKEN, api: "2024" });
    const requests: string[] = [];
    const logged = createClient({
      baseUrl: emu24.url,
      token: TOKEN,
      api: "2024",
      onRequest: (e) => {
        if (e.event === "response") requests.push(`${e.method} ${e.path}`);
      },
    });
    for (const c of Object.keys(samples) as TableCollectionName[]) {
      const made = await logged[c].create(samples[c].create as never);
      expect(made, c).toMatchObject(samples[c].create);
      expect(await client[c].get(made.id), c).toEqual(made);
      const changed = await client[c].update(made.id, samples[c].update as never);
      expect(changed, c).toMatchObject({ id: made.id, ...samples[c].update });
      expect(
        (await client[c].list.all()).map((o) => o.id),
        c,
      ).toEqual([made.id]);
    }
    // One create each, sent to the route the table says; besides them only list pages (the ids
    // each collection had before its first create, as for every exactly-once create).
    expect(requests.filter((r) => r.startsWith("POST"))).toEqual(
      Object.keys(samples).map((c) => `POST /v1/${c}/create`),
    );
    expect(requests.filter((r) => !r.startsWith("POST")).every((r) => /^GET \/v1\/\w+\/list\?/.test(r))).toBe(true);
    await emu24.close();
  });
});
