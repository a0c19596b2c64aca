import type { Props } from "../resources/kit/kind.js";

// A resource written by the dynamic provider records its serialized provider (the shim's text)
// among its inputs and outputs under `__provider`; one written by the native provider does not.
// Each class aliases the other's type, so a stack moves between the two by changing its import.
// This module is the only place that knows that key: everything else asks it.

/** The key under which the dynamic provider records its serialized provider. */
const PROVIDER_KEY = "__provider";

/** Whether this key is the recorded dynamic provider (not a property of any kind). */
export const isProviderKey = (key: string): boolean => key === PROVIDER_KEY;

/** The properties without the serialized dynamic provider a resource may record. */
export function withoutProvider(props: Props): Props {
  const { [PROVIDER_KEY]: _dropped, ...rest } = props;
  return rest;
}

/** Whether any of these property maps records the dynamic provider (a stack migrated from it). */
export const recordsProvider = (...props: Props[]): boolean => props.some((p) => PROVIDER_KEY in p);

/**
 * A stack moving between the dynamic and the native provider: the recorded provider is there on
 * one side only. That alone is a change, or the engine would keep the old outputs (with or
 * without it) forever; its update sends nothing to the service.
 */
export const providerMoved = (olds: Props, news: Props): boolean =>
  (olds[PROVIDER_KEY] === undefined) !== (news[PROVIDER_KEY] === undefined);

/** Checked inputs with the program's serialized provider kept (the dynamic host records what check returns). */
export const withProviderOf = (inputs: Props, news: Props): Props => ({
  ...inputs,
  [PROVIDER_KEY]: news[PROVIDER_KEY],
});

/**
 * The native plugin's diff entry for a recorded dynamic provider: a DELETE that never replaces.
 * Otherwise a migrated resource would be a Same step, which copies the old outputs, and the
 * serialized provider would stay in the state forever (pkg/resource/deploy/step_generator.go in
 * pulumi v3.274.1, as in v3.259.0). Empty when nothing records it.
 */
export function providerDeletion(olds: Props, oldInputs: Props): Record<string, "delete"> {
  return recordsProvider(olds, oldInputs) ? { [PROVIDER_KEY]: "delete" } : {};
}
