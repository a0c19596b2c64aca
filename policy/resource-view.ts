// How a rule sees one of our resources, whichever entry declared it (the dynamic classes'
// `pulumi-nodejs:dynamic/voiceagent:<Kind>` or the native plugin's `voiceagent:index:<Kind>`, the
// tokens of provider/identity.ts) and whichever language: every SDK registers the schema's
// property names (`initialMessage`, not `initial_message`), so one name serves all.
import { UnknownValueError } from "@pulumi/policy";
import { parseToken } from "pulumi-voiceagent/identity";

/** The kinds the pack's rules look at (the provider's kinds of the same names). */
export type Kind = "AccountConnection" | "Action" | "Agent" | "Call" | "PurchasedNumber" | "Voice" | "Webhook";

/** The kind of a type token of either entry, or undefined for a resource that is not ours. */
export function kindOf(type: string): string | undefined {
  return parseToken(type)?.kind;
}

/**
 * A property as a rule sees it. During a preview a value computed from another resource (an
 * Agent's `webhook` from a new Webhook's id) is not known yet: it is set, and its value is
 * checked when `up` runs the pack again with it known.
 */
export type Field = { state: "unset" } | { state: "unknown" } | { state: "known"; value: unknown };

/**
 * Reads a property without tripping over an unknown: @pulumi/policy's props throw when a rule
 * reads one (and then report "can't run policy during preview" as a warning, which would make
 * a program with nothing wrong preview with warnings).
 */
export function fieldOf(props: Record<string, unknown>, name: string): Field {
  let value: unknown;
  try {
    value = props[name];
  } catch (err) {
    if (err instanceof UnknownValueError) return { state: "unknown" };
    throw err;
  }
  return value === undefined || value === null ? { state: "unset" } : { state: "known", value };
}

/** A string property's value when known; undefined when unset, unknown or not a string. */
export function knownString(props: Record<string, unknown>, name: string): string | undefined {
  const f = fieldOf(props, name);
  return f.state === "known" && typeof f.value === "string" ? f.value : undefined;
}

/** What a rule's message says first: the kind and the resource's name, as the program declares it. */
export function describe(kind: string, name: string): string {
  return `${kind} '${name}'`;
}
