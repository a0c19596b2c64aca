import { randomUUID } from "node:crypto";
import { startRecordingServer, type Answer, type RecordedRequest, type RecordingServer } from "./recording-server.js";
import { agent as wireAgent, callOf, USER, voice } from "./wire-fixtures.js";

/**
 * What the fake does with one create request. "lost-twin": the work is done, someone else makes an
 * identical object at the same moment, and the reply is lost. A function scripts the create: it
 * decides when (and whether) to `commit()` the object and what to answer, and may wait on gates.
 */
export type CreateFate =
  | "ok"
  | "lost"
  | "lost-twin"
  | "503-after"
  | "503-before"
  | "429"
  | "reset-before"
  | ScriptedFate;

/** A create scripted by the test: `commit()` stores the object it would make and returns it. */
export type ScriptedFate = (commit: () => Record<string, unknown>) => Answer | Promise<Answer>;

/** A tiny stand-in for the service's agents, calls and numbers, whose creates fail on a script. */
export interface FakeService {
  server: RecordingServer;
  url: string;
  agents: Record<string, unknown>[];
  calls: Record<string, unknown>[];
  numbers: Record<string, unknown>[];
  /** The fates of the next creates, in order; afterwards every create is "ok". */
  fates: CreateFate[];
  /** Objects committed per create route. */
  committed: Record<string, number>;
  /** Ids the list routes leave out for now: committed, but not yet visible (a list that lags). */
  hidden: Set<string>;
  /** Called after each list page is computed and before it is sent (the test may change the store). */
  afterList?: ((path: string, query: Record<string, string>) => void) | undefined;
  creates(path: string): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the fake. `lists: false` makes it a server with only the documented routes (the list
 * routes answer 404, as a FastAPI app does for a route it lacks); `failLists` makes every list
 * after the first answer 500.
 */
export async function startFakeService(opts: { lists?: boolean; failLists?: boolean } = {}): Promise<FakeService> {
  const fake: Omit<FakeService, "server" | "url" | "close" | "afterList"> = {
    agents: [],
    calls: [],
    numbers: [],
    fates: [],
    committed: {},
    hidden: new Set(),
    creates: (path) => server.requests.filter((r) => r.method === "POST" && r.path === path),
  };
  let listsServed = 0;
  const page = (items: unknown[], q: Record<string, string>): Answer => {
    const p = Number(q.page ?? 1);
    const size = Number(q.size ?? 50);
    return {
      json: {
        items: items.slice((p - 1) * size, p * size),
        page: p,
        size,
        total: items.length,
        has_more: p * size < items.length,
      },
    };
  };
  const make: Record<string, (body: Record<string, unknown>) => Record<string, unknown>> = {
    "/v1/agents/create": (b) => ({
      ...wireAgent,
      id: randomUUID(),
      prompt: b.prompt,
      voice: { ...voice, id: b.voice },
      initial_message: b.initial_message ?? null,
    }),
    "/v1/calls/create": (b) => {
      const agent = fake.agents.find((a) => a.id === b.agent) ?? { ...wireAgent, id: b.agent };
      return { ...callOf(randomUUID(), "not_started"), to_number: b.to_number, from_number: b.from_number, agent };
    },
    "/v1/numbers/buy": (b) => ({
      id: randomUUID(),
      user_id: USER,
      active: true,
      inbound_agent: null,
      number: `+1${String(b.area_code ?? "555")}${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`,
    }),
  };
  const store: Record<string, Record<string, unknown>[]> = {
    "/v1/agents/create": fake.agents,
    "/v1/calls/create": fake.calls,
    "/v1/numbers/buy": fake.numbers,
  };
  const lists: Record<string, Record<string, unknown>[]> = {
    "/v1/agents/list": fake.agents,
    "/v1/calls/list": fake.calls,
    "/v1/numbers/list": fake.numbers,
  };

  const server = await startRecordingServer((req) => {
    if (req.method === "GET" && lists[req.path]) {
      if (opts.lists === false) return { status: 404, json: { detail: "Not Found" } };
      listsServed += 1;
      if (opts.failLists && listsServed > 1) return { status: 500, json: { detail: "list is down" } };
      const answer = page(
        lists[req.path]!.filter((o) => !fake.hidden.has(String(o.id))),
        req.query,
      );
      service.afterList?.(req.path, req.query);
      return answer;
    }
    const build = make[req.path];
    if (req.method === "POST" && build) {
      const fate = fake.fates.shift() ?? "ok";
      const body = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
      if (typeof fate === "function") {
        return fate(() => {
          const obj = build(body);
          store[req.path]!.push(obj);
          fake.committed[req.path] = (fake.committed[req.path] ?? 0) + 1;
          return obj;
        });
      }
      if (fate === "429") return { status: 429, headers: { "retry-after": "0" }, json: { detail: "slow down" } };
      if (fate === "503-before") return { status: 503, json: { detail: "unavailable" } };
      if (fate === "reset-before") return { reset: true };
      const obj = build(body);
      store[req.path]!.push(obj);
      fake.committed[req.path] = (fake.committed[req.path] ?? 0) + 1;
      if (fate === "lost-twin") store[req.path]!.push({ ...obj, id: randomUUID() });
      if (fate === "lost" || fate === "lost-twin") return { reset: true };
      if (fate === "503-after") return { status: 503, json: { detail: "unavailable" } };
      return { json: obj };
    }
    return { status: 404, json: { detail: "Not Found" } };
  });
  const service: FakeService = { ...fake, server, url: server.url, close: () => server.close() };
  return service;
}

/** The voice every fake agent speaks with. */
export const FAKE_VOICE_ID = voice.id;
