import type { ClientOptions } from "./options.js";
import { currentScope, currentStores, runInScope } from "./stores.js";

// One operation's time budget, when its caller sets one (a Pulumi resource's `customTimeouts`),
// in place of the client's `retry.budgetMs`. It travels with the async context rather than as an
// argument: one operation (a create with its reconciliation, an update that reads first) makes
// several calls through the client's methods, and each must see the same deadline. It is the
// client scope's `budget` (client/stores.ts): the provider's request scope sets it (kit/scope.ts).

/**
 * Runs `work` with `budgetMs` as the time budget of everything the client does inside it: no
 * retry, reconciliation or second attempt starts once it is spent. Unset or not positive: the
 * client's `retry.budgetMs` applies, as outside.
 * @example
 * await withBudget(30_000, () => client.agents.create(body));
 */
export function withBudget<T>(budgetMs: number | undefined, work: () => Promise<T>): Promise<T> {
  if (budgetMs === undefined || budgetMs <= 0) return work();
  return runInScope({ ...currentScope(), stores: currentStores(), budget: { budgetMs } }, work);
}

/** The deadline of an operation starting now, and the budget it comes from. */
export interface Deadline {
  /** Epoch ms by `options.now()`, the clock every deadline of the client is compared with. */
  at: number;
  budgetMs: number;
}

/**
 * The deadline that bounds an operation starting now: the budget in scope, fixed by the client's
 * own clock at its first use so that every call inside one scope shares it; else the client's.
 */
export function deadlineOf(options: ClientOptions): Deadline {
  const current = currentScope()?.budget;
  if (!current) return { at: options.now() + options.retry.budgetMs, budgetMs: options.retry.budgetMs };
  current.deadline ??= options.now() + current.budgetMs;
  return { at: current.deadline, budgetMs: current.budgetMs };
}
