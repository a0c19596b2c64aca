// Two resources, one live number: renames, swaps, moves into a component, a pending delete from an
// interrupted run, purchases bought once and cancelled only by their own destroy. After every up
// the service is exactly as declared, and `preview --refresh --expect-no-changes` passes. Steps
// share one stack and run in order; lines-purchases.test.ts goes on with a stack of its own,
// side by side with this file.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { linesStack, STEP, X, Y } from "./lines-stack.js";

const { ctx, agents, requests, deploy, lastChanges, boundTo, expectConverged, resources, editResources, outputs } =
  linesStack("lines", `e2e-lines-${randomUUID()}`);

describe("two resources addressing one live number", STEP, () => {
  it("binds two lines", async () => {
    await deploy([
      { name: "line-x", number: X, agent: "a" },
      { name: "line-y", number: Y, agent: "b" },
    ]);
    expect(await boundTo(X)).toBe(agents.a);
    expect(await boundTo(Y)).toBe(agents.b);
  });

  it("renaming a line (no aliases) leaves it answering", async () => {
    const unbinds = requests("POST /v1/numbers/update");
    const up = await deploy([
      { name: "main-line", number: X, agent: "a" },
      { name: "line-y", number: Y, agent: "b" },
    ]);
    expect(await lastChanges()).toEqual({ create: 1, delete: 1 });
    expect(up.stderr + up.stdout).toMatch(/left bound/);
    expect(await boundTo(X)).toBe(agents.a);
    // The create bound it; the delete sent nothing.
    expect(requests("POST /v1/numbers/update") - unbinds).toBe(1);
    await expectConverged();
  });

  it("swapping the numbers of two lines leaves each number on the agent declared", async () => {
    await deploy([
      { name: "main-line", number: Y, agent: "a" },
      { name: "line-y", number: X, agent: "b" },
    ]);
    expect(await boundTo(X)).toBe(agents.b);
    expect(await boundTo(Y)).toBe(agents.a);
    await expectConverged();
  });

  it("moving a line into a component (no aliases) leaves it answering", async () => {
    await deploy([
      { name: "main-line", number: Y, agent: "a", grouped: true },
      { name: "line-y", number: X, agent: "b" },
    ]);
    expect(await boundTo(Y)).toBe(agents.a);
    expect(await boundTo(X)).toBe(agents.b);
    await expectConverged();
  });

  it("a pending delete left by an interrupted run never undoes a binding the program declares", async () => {
    const isX = (r: { type: string; outputs?: Record<string, unknown> }) =>
      r.type.endsWith("voiceagent:PhoneNumber") && r.outputs?.number === X;
    const copiesOfX = () => resources().filter(isX);
    // What an up killed during a replacement leaves: the old copy of the line, marked for deletion.
    editResources((all) => {
      const live = all.find(isX);
      expect(live).toBeDefined();
      all.splice(all.indexOf(live!), 0, { ...structuredClone(live!), delete: true });
    });
    expect(copiesOfX().map((r) => r.delete ?? false)).toEqual([true, false]);
    const writes = requests("POST /v1/numbers/update");
    // The same layout as the step before: only the pending delete is new.
    await deploy([
      { name: "main-line", number: Y, agent: "a", grouped: true },
      { name: "line-y", number: X, agent: "b" },
    ]);
    // The pending delete ran (it left the state) and sent nothing: the line stays bound.
    expect(copiesOfX().map((r) => r.delete ?? false)).toEqual([false]);
    expect(requests("POST /v1/numbers/update") - writes).toBe(0);
    expect(await boundTo(X)).toBe(agents.b);
    await expectConverged();
  });
});

describe("purchased numbers: bought once, cancelled only by their own destroy", STEP, () => {
  // The same up removes main-line: one up, and one converged preview, for both steps.
  it("buys a number in an area code and binds it; removing a line unbinds its number (and never cancels it)", async () => {
    await deploy([{ name: "line-y", number: X, agent: "b" }], [{ name: "bought", areaCode: "415" }]);
    const bought = String((outputs().bought as Record<string, string> | undefined)?.bought);
    expect(bought).toMatch(/^\+1415\d{7}$/);
    expect(requests("POST /v1/numbers/buy")).toBe(1);
    expect((await ctx.client.numbers.get(bought)).active).toBe(true);
    const y = await ctx.client.numbers.get(Y);
    expect(y.inbound_agent).toBeNull();
    expect(y.active).toBe(true);
    expect(requests("POST /v1/numbers/cancel")).toBe(0);
    await expectConverged();
  });

  it("renaming a purchase that adopts a number never cancels it; a protected one cannot be destroyed", async () => {
    await deploy([{ name: "line-y", number: X, agent: "b" }], [{ name: "adopted", number: Y, protect: false }]);
    await deploy([{ name: "line-y", number: X, agent: "b" }], [{ name: "adopted-renamed", number: Y, protect: true }]);
    expect((await ctx.client.numbers.get(Y)).active).toBe(true);
    await expect(deploy([{ name: "line-y", number: X, agent: "b" }], [])).rejects.toThrow(/protected/);
    expect((await ctx.client.numbers.get(Y)).active).toBe(true);
  });

  it("destroying an unprotected purchase cancels its number, and nothing else", async () => {
    await deploy([{ name: "line-y", number: X, agent: "b" }], [{ name: "adopted-renamed", number: Y, protect: false }]);
    await deploy([{ name: "line-y", number: X, agent: "b" }], []);
    expect((await ctx.client.numbers.get(Y)).active).toBe(false);
    expect((await ctx.client.numbers.get(X)).active).toBe(true);
    expect(await boundTo(X)).toBe(agents.b);
  });
});
