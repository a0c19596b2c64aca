import type { z } from "zod";
import { bodiesOf } from "./derive.js";
import type { KindDef, KindInfo, Props } from "./kind.js";
import { pulledOf } from "./pulled.js";
import { kindRuntime, type KindRuntime } from "./runtime.js";

/**
 * A kind as the registry holds it: its declaration as readers see it, its provider runtime, and
 * the create body it derives. Made per kind by {@link registered}, where the declaration's own
 * types are still known, so every reader can walk the registry as one list.
 */
export interface RegisteredKind<K extends string = string> {
  kind: K;
  info: KindInfo;
  runtime: KindRuntime;
  /** The body a create sends for these recorded inputs, or undefined when they do not parse. */
  createBody(inputs: Props): Props | undefined;
}

/** Registers one kind's declaration. */
export function registered<S extends z.ZodRawShape, R extends { id: string }, W, K extends string>(
  def: KindDef<S, R, W, K>,
): RegisteredKind<K> {
  const { pull, ...declared } = def;
  return {
    kind: def.kind,
    // A kind that says how to pull but not its arguments is pulled as an import reads it: each field's own read.
    info: {
      ...declared,
      ...(pull ? { pull: { ...pull, adopt: pull.adopt ?? ((live: R) => pulledOf(def, live)) } } : {}),
    },
    runtime: kindRuntime(def),
    createBody(inputs) {
      const parsed = def.input.safeParse(inputs);
      return parsed.success ? bodiesOf(def, parsed.data).create : undefined;
    },
  };
}
