// Which resource owns a live number when a delete runs: declarations are per kind (a purchase never
// holds a binding, a binding never holds a purchase), and a run limited to part of the stack
// (--target) cannot know the owners it leaves out.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Host } from "../../provider/host.js";
import { findInvocation, limitingFlag, type ProcessInfo } from "../../provider/coordination/invocation.js";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";

let server: RecordingServer | undefined;
afterEach(async () => server?.close());
// Each test is its own deployment: a host of its own.
let host = new Host();
beforeEach(() => {
  host = new Host();
});

const USER = randomUUID();
const [N, M] = ["+15550010001", "+15550010002"];
const agentId = randomUUID();
const numberOf = (number: string) => ({ id: randomUUID(), user_id: USER, number, active: true, inbound_agent: null });

async function serve() {
  server = await startRecordingServer((req) => ({ json: numberOf(req.query.phone_number ?? N) }));
  // The API generation set: no check asks the service which one it speaks.
  return {
    baseUrl: server.url,
    token: `t-${randomUUID()}`,
    config: { get: (k: string) => (k === "voiceagent:api" ? "2023" : undefined) },
  };
}
const writes = () =>
  server!.requests.filter((r) => r.method === "POST").map((r) => `${r.path} ${r.query.phone_number} ${r.body}`);

describe("declarations are kept per kind", () => {
  it("a purchase of the number does not keep its binding: deleting the binding unbinds it", async () => {
    const settings = await serve();
    // The README's pattern: PurchasedNumber({ number: N }) and a PhoneNumber binding N.
    expect((await runtimeFor("PurchasedNumber", host).check(settings, {}, { number: N })).failures ?? []).toEqual([]);
    await runtimeFor("PhoneNumber", host).delete(settings, randomUUID(), { number: N, inboundAgent: agentId });
    expect(writes()).toEqual([`/v1/numbers/update ${N} {"inbound_agent":null}`]);
  });

  it("a binding of the number does not keep its purchase: deleting the purchase cancels it", async () => {
    const settings = await serve();
    expect(
      (await runtimeFor("PhoneNumber", host).check(settings, {}, { number: M, inboundAgent: agentId })).failures ?? [],
    ).toEqual([]);
    await runtimeFor("PurchasedNumber", host).delete(settings, randomUUID(), { number: M });
    expect(writes()).toEqual([`/v1/numbers/cancel ${M} `]);
  });

  it("another resource of the same kind keeps it: nothing is sent", async () => {
    const settings = await serve();
    await runtimeFor("PhoneNumber", host).check(settings, {}, { number: N, inboundAgent: agentId });
    await runtimeFor("PurchasedNumber", host).check(settings, {}, { number: M });
    await runtimeFor("PhoneNumber", host).delete(settings, randomUUID(), { number: N, inboundAgent: agentId });
    await runtimeFor("PurchasedNumber", host).delete(settings, randomUUID(), { number: M });
    expect(writes()).toEqual([]);
  });
});

describe("a run limited to part of the stack", () => {
  const targeted = { limitedBy: "--target" };

  it("cannot know an undeclared number's owner; a declared one is still known", () => {
    expect(host.run(() => host.claims.of("PhoneNumber", N, targeted))).toEqual({ status: "unseen", flag: "--target" });
    expect(host.run(() => host.claims.of("PhoneNumber", N, { limitedBy: undefined }))).toEqual({ status: "free" });
    expect(host.run(() => host.claims.of("PhoneNumber", N, undefined))).toEqual({ status: "free" });
  });

  it("a number declared in this run is known whatever the run", async () => {
    await runtimeFor("PhoneNumber", host).check(await serve(), {}, { number: N, inboundAgent: agentId });
    expect(host.run(() => host.claims.of("PhoneNumber", N, targeted))).toEqual({ status: "declared" });
    expect(host.run(() => host.claims.of("PurchasedNumber", N, targeted))).toEqual({
      status: "unseen",
      flag: "--target",
    });
  });

  it.each([
    [["up", "--yes", "--target", "urn:a"], "--target"],
    [["up", "--target=urn:a"], "--target"],
    [["destroy", "-t", "urn:a"], "--target"],
    [["destroy", "-turn:a"], "--target"],
    [["up", "--exclude", "urn:a"], "--exclude"],
    [["up", "--target-replace", "urn:a"], "--target-replace"],
    [["up", "--yes", "--stack", "dev", "--refresh"], undefined],
    [["destroy", "--exclude-protected"], undefined],
    [["up", "--", "--target"], undefined],
  ])("reads %j as limited by %s", (args, flag) => {
    expect(limitingFlag(args)).toBe(flag);
  });

  it("finds the pulumi command (the engine) among the provider's ancestors, through a wrapper script", () => {
    const table: Record<number, ProcessInfo> = {
      30: { ppid: 20, argv: ["node", "/x/dynamic-provider/index.js", "127.0.0.1:4000"] },
      20: { ppid: 10, argv: ["/bin/sh", "/x/pulumi-resource-pulumi-nodejs", "127.0.0.1:4000"] },
      10: { ppid: 1, argv: ["/opt/pulumi/bin/pulumi", "destroy", "--yes", "--target", "urn:a"] },
    };
    expect(findInvocation(30, (pid) => table[pid])).toEqual({ limitedBy: "--target", pid: 10 });
    table[10] = { ppid: 1, argv: ["/opt/pulumi/bin/pulumi", "destroy", "--yes"] };
    expect(findInvocation(30, (pid) => table[pid])).toEqual({ limitedBy: undefined, pid: 10 });
    // No pulumi among the ancestors (a test runner): the provider cannot tell.
    table[10] = { ppid: 1, argv: ["vitest"] };
    expect(findInvocation(30, (pid) => table[pid])).toBeUndefined();
  });
});
