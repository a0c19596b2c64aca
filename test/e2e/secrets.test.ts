// A stack in which every string input of every kind is pulumi.secret(...): none of those values
// may appear in plaintext in `pulumi stack export`, any file of the backend folder (history and
// backups included), or the CLI's output of up, preview, refresh and destroy.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findSecretInState } from "../helpers/pulumi-stack.js";
import { useEmulatorStack } from "../helpers/e2e.js";

const nonce = randomUUID().slice(0, 8);
const values = {
  "secrets:nonce": nonce,
  "secrets:transferTo": "+15557771234",
  "secrets:ownedNumber": "+15550010003",
  "secrets:lineNumber": "+15550010002",
  "secrets:callee": "+15558889999",
};
const ctx = useEmulatorStack({
  name: "secrets",
  project: "secrets",
  program: "dist/test/e2e/fixtures/secrets/index.js",
  token: `e2e-secrets-${randomUUID()}`,
  config: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value, secret: true }])),
});
// Every distinctive value the program marks secret (the enum values also appear as defaults elsewhere).
const secrets = [
  `voice-${nonce}`,
  `prompt-${nonce}`,
  `hello-${nonce}`,
  `https://hooks.example.com/${nonce}`,
  ...Object.values(values).slice(1),
];

describe("every secret input stays secret", () => {
  it("appears nowhere in plaintext: state, backend files, CLI output", async () => {
    const outputs: string[] = [];
    // First a service that makes the agent but does not keep its initialMessage: a partial create,
    // whose explanation must be what `pulumi up` prints (the engine shows only its reasons).
    const { service } = ctx.emu;
    const createAgent = service.createAgent.bind(service);
    service.createAgent = (u, { initial_message: _dropped, ...b }) => createAgent(u, b);
    const partial = await ctx.t.stack.up({ onOutput: (o) => outputs.push(o) }).then(
      () => "the up succeeded",
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    service.createAgent = createAgent;
    const [made] = await ctx.client.agents.list.all();
    // That the agent was made (its id), what it lacks, that the state tracks it, and what to run.
    expect(partial).toContain(made?.id);
    expect(partial).toContain("initialMessage");
    expect(partial).toMatch(/\bstate\b/);
    expect(partial).toMatch(/run `pulumi up`/);
    outputs.push(partial);
    const up = await ctx.t.stack.up({ onOutput: (o) => outputs.push(o) });
    expect(up.summary.result).toBe("succeeded");
    // The service did get them (the check is not vacuous).
    const agent = await ctx.client.agents.get(String(up.outputs.agentId?.value));
    expect(agent.prompt).toBe(`prompt-${nonce}`);
    expect((await ctx.client.calls.list.all())[0]?.to_number).toBe(values["secrets:callee"]);

    const preview = await ctx.t.stack.preview({ refresh: true, diff: true });
    const refresh = await ctx.t.stack.refresh();
    outputs.push(preview.stdout, preview.stderr, refresh.stdout, refresh.stderr, up.stdout, up.stderr);
    for (const secret of secrets) {
      expect(await findSecretInState(ctx.t, secret), secret).toEqual([]);
      expect(outputs.join("\n").includes(secret), `CLI output holds ${secret}`).toBe(false);
    }
    const destroy = await ctx.t.stack.destroy();
    for (const secret of secrets) {
      expect((destroy.stdout + destroy.stderr).includes(secret), `destroy output holds ${secret}`).toBe(false);
      expect(await findSecretInState(ctx.t, secret), secret).toEqual([]);
    }
  });
});
