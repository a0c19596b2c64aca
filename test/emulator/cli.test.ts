import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnEmulator } from "../helpers/emulator-process.js";

const dir = mkdtempSync(path.join(tmpdir(), "va-emu-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// biome-ignore lint/suspicious/noExplicitAny: tests read fields of whatever the emulator answered; its schemas are checked in test/emulator
const json = async (r: Response): Promise<any> => r.json();
const headers = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });

describe("emulator CLI", () => {
  it("prints the base URL first, a generated token second, and stops cleanly on SIGTERM", async () => {
    const p = await spawnEmulator(["--port", "0", "--seed"]);
    expect(p.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const token = /^token (\S+)$/.exec(await p.line(1))?.[1];
    expect(token).toBeDefined();
    const res = await fetch(`${p.url}/v1/numbers/list`, { headers: headers(token!) });
    expect(res.status).toBe(200);
    expect((await json(res)).total).toBe(4);
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
  });

  it("keeps data in --db across a restart and a kill -9", async () => {
    const db = path.join(dir, "emu.db");
    const args = ["--port", "0", "--db", db, "--token", "persist-token", "--seed"];
    const first = await spawnEmulator(args);
    const voices = await json(await fetch(`${first.url}/v1/voices/list`, { headers: headers("persist-token") }));
    const created = await fetch(`${first.url}/v1/agents/create`, {
      method: "POST",
      headers: headers("persist-token"),
      body: JSON.stringify({ prompt: "survive", voice: voices.items[0].id }),
    });
    expect(created.status).toBe(200);
    const agent = await json(created);
    first.child.kill("SIGKILL");
    await first.exited;

    const second = await spawnEmulator(args);
    const read = await fetch(`${second.url}/v1/agents/?id=${agent.id}`, { headers: headers("persist-token") });
    expect(read.status).toBe(200);
    expect(await json(read)).toEqual(agent);
    const numbers = await json(await fetch(`${second.url}/v1/numbers/list`, { headers: headers("persist-token") }));
    expect(numbers.total).toBe(4);
    second.child.kill("SIGINT");
    expect(await second.exited).toBe(0);
  });

  it("accepts after-commit faults and a fault seed", async () => {
    const rule = { phase: "after", route: "/v1/agents/create", status: 503, rate: 0.5 };
    const p = await spawnEmulator([
      "--port",
      "0",
      "--token",
      "cli-fault",
      "--fault",
      JSON.stringify(rule),
      "--fault-seed",
      "4242",
    ]);
    const faults = await json(await fetch(`${p.url}/admin/faults`, { headers: headers("cli-fault") }));
    expect(faults).toEqual({ seed: 4242, faults: [{ ...rule }] });
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
  });

  // Each message names the flag and the fact the value broke (the range, the field), in any words.
  it.each([
    [
      ["--port", "99999"],
      [/--port/, /65535/],
    ],
    [
      ["--fault-seed", "-3"],
      [/--fault-seed/, /\b0\b.*4294967295/],
    ],
    [
      ["--fault-seed", "1.5"],
      [/--fault-seed/, /integer/i],
    ],
    [
      ["--fault-seed", "4294967296"],
      [/--fault-seed/, /4294967295/],
    ],
    [
      ["--fault", '{"phase":"after","status":429}'],
      [/--fault/, /status/, /5xx|\b5\d\d\b/],
    ],
    [
      ["--fault", '{"phase":"sometime","reset":true}'],
      [/--fault/, /phase/],
    ],
    [
      ["--fault", "{nope"],
      [/--fault/, /JSON/],
    ],
  ])("rejects %j with a message naming the flag and what is wrong", async (args, patterns) => {
    const error = await spawnEmulator(["--port", "0", ...args]).then(
      (p) => {
        p.child.kill("SIGKILL");
        return new Error("the emulator started");
      },
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    );
    for (const pattern of patterns) expect(error.message).toMatch(pattern);
  });
});
