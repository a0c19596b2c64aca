import type * as pulumi from "@pulumi/pulumi";

/**
 * A resource's outputs as Pulumi outputs, from the plain values a deployed resource holds. Each
 * resource class merges this with an interface of its own plain outputs (exported, so programs can
 * name them), which keeps the resources' public types plain TypeScript.
 */
export type OutputsOf<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

/**
 * A resource's outputs from its arguments: each argument as deployed (inputs unwrapped), plus what
 * the resource reports besides. Enum arguments read back as any string a newer service may send.
 * The classes' own `*Outputs` are now generated from the kinds; this stays for programs that use it.
 */
export type Deployed<Args, Reported> = { [K in keyof Args]: Widen<pulumi.Unwrap<Args[K]>> } & Reported;

/** String unions (and lists of them) widened to string. */
type Widen<T> = T extends string ? string : T extends readonly (infer E)[] ? Widen<E>[] : T;

/**
 * What a class's static `get` passes its constructor: a read sends no arguments (the engine reads
 * the object by the id in its options), so what is already known of the object stands in for them.
 */
export function knownState<Args>(state: object): Args {
  return state as Args;
}
