// Two resources, one live number: renames, swaps, moves into a component, a pending delete from an
// interrupted run, a purchase and a binding of one number, purchases bought once and cancelled only
// by their own destroy. After every up the service is exactly as declared, and `preview --refresh
// --expect-no-changes` passes. Steps share one stack and run in order; lines-purchases.test.ts
// goes on with a stack of its own, side by side with this file.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { linesStack, STEP, X, Y } from "./lines-stack.js";

const {
  ctx,
  agents,
  requests,
  deploy,
  lastChanges,
  boundTo,
  expectConverged,
  resources,
  editResources,
  outputs,
  unprotect,
} = linesStack("lines", `e2e-lines-${randomUUID()}`);

/**
 * A purchase adopting Y, declared from the first up on: a purchase and a binding of one number own
 * different things, so every step below runs beside it, and removing Y's binding must unbind Y
 * (no other line declares it) and keep it bought.
 */
const adopted = [{ name: "adopted", number: Y }];

describe("two resources addressing one live number", STEP, () => {
  it("binds two lines, one of them to a number the program also purchases", async () => {
    await deploy(
      [
        { name: "line-x", number: X, agent: "a" },
        { name: "line-y", number: Y, agent: "b" },
      ],
      adopted,
    );
    expect(await boundTo(X)).toBe(agents.a);
    expect(await boundTo(Y)).toBe(agents.b);
    expect((await ctx.client.numbers.get(Y)).active).toBe(true);
  });

  it("renaming a line (no aliases) leaves it answering", async () => {
    const unbinds = requests("POST /v1/numbers/update");
    const up = await deploy(
      [
        { name: "main-line", number: X, agent: "a" },
        { name: "line-y", number: Y, agent: "b" },
      ],
      adopted,
    );
    expect(await lastChanges()).toEqual({ create: 1, delete: 1 });
    expect(up.stderr + up.stdout).toMatch(/left bound/);
    expect(await boundTo(X)).toBe(agents.a);
    // The create bound it; the delete sent nothing.
    expect(requests("POST /v1/numbers/update") - unbinds).toBe(1);
    await expectConverged();
  });

  it("swapping the numbers of two lines leaves each number on the agent declared", async () => {
    await deploy(
      [
        { name: "main-line", number: Y, agent: "a" },
        { name: "line-y", number: X, agent: "b" },
      ],
      adopted,
    );
    expect(await boundTo(X)).toBe(agents.b);
    expect(await boundTo(Y)).toBe(agents.a);
    await expectConverged();
  });

  // One up for both: the pending delete is of line-y's number (X), the move is main-line's (Y).
  const moveTitle =
    "moving a line into a component (no aliases) leaves it answering; " +
    "a pending delete left by an interrupted run never undoes a binding the program declares";
  it(moveTitle, async () => {
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
    await deploy(
      [
        { name: "main-line", number: Y, agent: "a", grouped: true },
        { name: "line-y", number: X, agent: "b" },
      ],
      adopted,
    );
    // The pending delete ran (it left the state) and the line stays bound.
    expect(copiesOfX().map((r) => r.delete ?? false)).toEqual([false]);
    expect(await boundTo(X)).toBe(agents.b);
    expect(await boundTo(Y)).toBe(agents.a);
    // The moved line's create bound Y (one write, as the rename's create); the pending delete and
    // the delete of main-line's old URN sent nothing (an unbind of X would also have left it unbound).
    expect(requests("POST /v1/numbers/update") - writes).toBe(1);
    await expectConverged();
  });
});

describe("purchased numbers: bought once, cancelled only by their own destroy", STEP, () => {
  // One up, and one converged preview, for three changes: main-line (Y's binding) removed, a number
  // bought, and the purchase adopting Y renamed (and protected, for the next step).
  const buyTitle =
    "buys a number in an area code and binds it; removing a line unbinds its number, which the program still " +
    "purchases (and never cancels it); renaming a purchase that adopts a number never cancels it";
  it(buyTitle, async () => {
    const up = await deploy(
      [{ name: "line-y", number: X, agent: "b" }],
      [
        { name: "bought", areaCode: "415" },
        { name: "adopted-renamed", number: Y, protect: true },
      ],
    );
    const bought = String((outputs().bought as Record<string, string> | undefined)?.bought);
    expect(bought).toMatch(/^\+1415\d{7}$/);
    expect(requests("POST /v1/numbers/buy")).toBe(1);
    expect((await ctx.client.numbers.get(bought)).active).toBe(true);
    // A purchase is no binding: Y is not left bound for it.
    expect(up.stderr + up.stdout).not.toMatch(/left bound/);
    const y = await ctx.client.numbers.get(Y);
    expect(y.inbound_agent ?? null).toBeNull();
    expect(y.active).toBe(true);
    expect(requests("POST /v1/numbers/cancel")).toBe(0);
    await expectConverged();
  });

  it("a protected purchase cannot be destroyed", async () => {
    const bought = [{ name: "bought", areaCode: "415" }];
    await expect(deploy([{ name: "line-y", number: X, agent: "b" }], bought)).rejects.toThrow(/protected/);
    expect((await ctx.client.numbers.get(Y)).active).toBe(true);
    expect(requests("POST /v1/numbers/cancel")).toBe(0);
  });

  it("destroying an unprotected purchase cancels its number, and nothing else", async () => {
    // Unprotected as `pulumi state unprotect` does it (docs/linked-numbers.md), not by an up.
    await unprotect("adopted-renamed");
    const bought = String((outputs().bought as Record<string, string> | undefined)?.bought);
    await deploy([{ name: "line-y", number: X, agent: "b" }], [{ name: "bought", areaCode: "415" }]);
    expect((await ctx.client.numbers.get(Y)).active).toBe(false);
    expect(requests("POST /v1/numbers/cancel")).toBe(1);
    expect((await ctx.client.numbers.get(bought)).active).toBe(true);
    expect((await ctx.client.numbers.get(X)).active).toBe(true);
    expect(await boundTo(X)).toBe(agents.b);
  });
});
