// The emulator and the client alone, each next to a bare baseline in the same run.
import autocannon from "autocannon";
import Fastify from "fastify";
import got from "got";
import { createClient } from "pulumi-voiceagent/client";
import { startEmulator } from "voiceagent-emulator";

/** One load test's figures. */
export interface LoadResult {
  target: string;
  route: string;
  rps: number;
  p50ms: number;
  p99ms: number;
}

async function load(url: string, method: "GET" | "POST", token: string, body: string | undefined, seconds: number) {
  const r = await autocannon({
    url,
    method,
    connections: 10,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body ? { body } : {}),
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${method} ${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50ms: r.latency.p50, p99ms: r.latency.p99 };
}

/** A bare Fastify app answering the same JSON on the same routes, no validation, no storage. */
async function bareServer(agentJson: string) {
  const app = Fastify({ logger: false });
  app.get("/v1/agents/", async (_req, reply) => reply.type("application/json").send(agentJson));
  app.post("/v1/agents/create", async (_req, reply) => reply.type("application/json").send(agentJson));
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` };
}

/** Emulator throughput and latency against a bare Fastify route returning the same JSON. */
export async function benchEmulator(seconds: number): Promise<LoadResult[]> {
  const token = "bench-token";
  const emu = await startEmulator({ tokens: [token], seed: true });
  const client = createClient({ baseUrl: emu.url, token });
  const voice = emu.seeds.get(token)!.voices[0]!;
  const agent = await client.agents.create({
    prompt: "Benchmark agent.",
    voice,
    actions: emu.seeds.get(token)!.actions,
  });
  const bare = await bareServer(JSON.stringify(agent));
  const createBody = JSON.stringify({ prompt: "Benchmark agent.", voice });
  const out: LoadResult[] = [];
  try {
    for (const [route, method, body] of [
      [`/v1/agents/?id=${agent.id}`, "GET", undefined],
      ["/v1/agents/create", "POST", createBody],
    ] as const) {
      out.push({
        target: "bare fastify",
        route: `${method} ${route.split("?")[0]}`,
        ...(await load(`${bare.url}${route}`, method, token, body, seconds)),
      });
      out.push({
        target: "emulator",
        route: `${method} ${route.split("?")[0]}`,
        ...(await load(`${emu.url}${route}`, method, token, body, seconds)),
      });
    }
  } finally {
    await bare.app.close();
    await emu.close();
  }
  return out;
}

/** Per-request cost of our client against a bare got call to the same bare server. */
export async function benchClient(requests: number): Promise<{ target: string; usPerRequest: number }[]> {
  const token = "bench-token";
  const emu = await startEmulator({ tokens: [token], seed: true });
  const agent = await createClient({ baseUrl: emu.url, token }).agents.create({
    prompt: "p",
    voice: emu.seeds.get(token)!.voices[0]!,
  });
  await emu.close();
  const bare = await bareServer(JSON.stringify(agent));
  const client = createClient({ baseUrl: bare.url, token });
  const url = `${bare.url}/v1/agents/?id=${agent.id}`;
  const headers = { authorization: `Bearer ${token}` };
  const timeIt = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await fn(); // warm up
    const started = performance.now();
    for (let i = 0; i < requests; i++) await fn();
    return ((performance.now() - started) * 1000) / requests;
  };
  try {
    // Alternate to spread machine noise over both.
    const bareUs: number[] = [];
    const oursUs: number[] = [];
    for (let round = 0; round < 3; round++) {
      bareUs.push(await timeIt(() => got(url, { headers }).json()));
      oursUs.push(await timeIt(() => client.agents.get(agent.id)));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    return [
      { target: "bare got", usPerRequest: median(bareUs) },
      { target: "our client", usPerRequest: median(oursUs) },
    ];
  } finally {
    await bare.app.close();
  }
}
