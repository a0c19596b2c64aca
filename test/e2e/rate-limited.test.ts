// A stack of every kind the provider declares, on the current API, under a tight per-token rate
// limit (issue 32): `up`, a refreshing preview after hand edits of each kind, an object deleted and
// a number cancelled outside Pulumi and an agent a lagging list leaves out, and a refreshing `up`
// that puts everything back. The engine sends each phase's first requests at once, past the
// limit's burst of 4, so each meets 429s (the emulator counts them), says it waits on the limit,
// and converges with no error.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { changes, useEmulatorStack } from "../helpers/e2e.js";

/** Agents (the first with the prompt object, the second edited by hand, the third left out of a lagging list) and bound lines. */
const AGENTS = 3;
const LINES = 2;
const TOKEN = `e2e-limited-${randomUUID()}`;
const ctx = useEmulatorStack({
  name: "limited",
  project: "kinds",
  program: "dist/test/e2e/fixtures/every-kind/index.js",
  token: TOKEN,
  api: "2024",
  config: { "voiceagent:api": { value: "2024" } },
  // Far below what the engine sends at once: the first burst of creates meets 429s.
  rateLimit: { perSecond: 12, burst: 4 },
  before: async ({ emu }) => {
    const numbers = emu.addNumbers(TOKEN, { count: LINES, prefix: "+1555710" }).numbers;
    return { "kinds:agents": { value: String(AGENTS) }, "kinds:numbers": { value: JSON.stringify(numbers) } };
  },
});
const limited = () => Object.values(ctx.emu.stats.rateLimited).reduce((a, b) => a + b, 0);
const WAITING = "waiting on the service's rate limit (it answered 429)";

/** Ids the program exports. */
interface Ids {
  voice: string;
  action: string;
  webhook: string;
  prompt: string;
  spare: string;
  vectorDatabase: string;
  openai: string;
  twilio: string;
  agents: string[];
  lines: string[];
  bought: string;
  linked: string;
  call: string;
}

/** Changes one stored object as the service's dashboard would: `path` of its JSON set to `value`, no request sent. */
function handEdit(kind: string, id: string, path: string, value: unknown): void {
  const changed = ctx.emu.store.db
    .prepare("UPDATE objects SET data = json_set(data, ?, json(?)) WHERE kind = ? AND id = ?")
    .run(path, JSON.stringify(value), kind, id).changes;
  if (changed !== 1) throw new Error(`no ${kind} ${id} to edit`);
}

describe("every kind under the service's rate limit", () => {
  it("up, hand edits seen by preview --refresh, outside deletions leave the state, a lagging list keeps its agent, up puts all back", async () => {
    const { stack } = ctx.t;
    let t = performance.now();
    const ms: number[] = [];
    const lap = () => {
      ms.push(Math.round(performance.now() - t));
      t = performance.now();
    };
    const up = await stack.up();
    const upLimited = limited();
    const upRequests = ctx.emu.stats.total;
    lap();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: AGENTS + LINES + 12 });
    expect(ctx.emu.stats.writes["POST /v1/agents/create"]).toBe(AGENTS);
    expect(`${up.stdout}\n${up.stderr}`).toContain(WAITING);
    const ids = (await stack.outputs()).ids?.value as Ids;
    const [agent0, agent1, agent2] = ids.agents;
    if (!agent0 || !agent1 || !agent2) throw new Error("the program exported too few agents");

    // A hand edit of each kind that has a property the service lets change (a call's are fixed
    // once placed): ten resources, nine of them seen.
    // An agent the current API holds with its own fields (every agent now: autonaming gives each a
    // name) answers its inline prompt from them: the dashboard's edit changes that text.
    handEdit("agent", agent1, "$.current.prompt.fields.content", "Edited by hand.");
    handEdit("voice", ids.voice, "$.voice_name", "en-US-GuyNeural");
    handEdit("action", ids.action, "$.config.phone_number", "+15550008888");
    handEdit("webhook", ids.webhook, "$.url", "https://hooks.example.com/edited");
    handEdit("prompt", ids.prompt, "$.content", "Edited by hand.");
    handEdit("vector_database", ids.vectorDatabase, "$.index", "edited-index");
    handEdit("account_connection", ids.twilio, "$.credentials.twilio_account_sid", "AC-edited");
    // A credential is write-only (compared with the value sent, whatever the service says back):
    // a key changed outside Pulumi is not seen, so this edit is not among the updates below.
    handEdit("account_connection", ids.openai, "$.credentials.openai_api_key", "sk-edited");
    handEdit("number", ids.lines[1]!, "$.inbound_agent", agent2);
    handEdit("number", ids.linked, "$.inbound_agent", agent1);
    // Outside Pulumi: the spare prompt deleted, the bought number cancelled.
    expect(
      ctx.emu.store.db.prepare("DELETE FROM objects WHERE kind = 'prompt' AND id = ?").run(ids.spare).changes,
    ).toBe(1);
    handEdit("number", ids.bought, "$.active", false);
    // A list lagging behind: agent 2 missing from every page of the agent list.
    ctx.emu.faults.add({ phase: "after", route: "/v1/agents/list", items: { where: { id: agent2 }, omit: true } });

    ctx.emu.resetStats();
    const preview = await stack.preview({ refresh: true });
    const previewLimited = limited();
    const previewRequests = ctx.emu.stats.total;
    lap();
    // Every edit is seen; the deleted and the cancelled are made again; the lagging agent is kept.
    expect(changes(preview.changeSummary), preview.stdout).toEqual({ update: 9, create: 2 });
    expect(`${preview.stdout}\n${preview.stderr}`).toContain(WAITING);
    // The lagging agent was read on its own (and found), not taken for deleted.
    expect(ctx.emu.stats.byRoute["GET /v1/agents"]).toBeGreaterThanOrEqual(1);

    // A refreshing up: the refresh drops the deleted and the cancelled from the state (so the up
    // makes them again: were they kept, nothing would be created) and takes in the edits, which
    // the up puts back; the lagging list still lags, and its agent is kept (neither made again nor
    // changed).
    ctx.emu.resetStats();
    const again = await stack.up({ refresh: true });
    const againLimited = limited();
    lap();
    expect(changes(again.summary.resourceChanges ?? {})).toEqual({ update: 9, create: 2 });
    expect(`${again.stdout}\n${again.stderr}`).toContain(WAITING);
    expect(ctx.emu.stats.writes["POST /v1/agents/create"] ?? 0).toBe(0);
    expect(ctx.emu.stats.writes["POST /v1/prompts/create"]).toBe(1);
    console.log(
      `rate limit 12/s, ${AGENTS + LINES + 12} resources of every kind: 429s met by up ${upLimited}, ` +
        `preview --refresh ${previewLimited}, up --refresh ${againLimited} ` +
        `(of ${upRequests}, ${previewRequests}, ${ctx.emu.stats.total} requests; ${ms.join(", ")} ms)`,
    );
    for (const met of [upLimited, previewLimited, againLimited]) expect(met).toBeGreaterThan(0);
  }, 240_000);
});
