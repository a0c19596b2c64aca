import { z } from "zod";

/**
 * An enumerated value as read from the current API: one of the known values, or any other string
 * kept as it came. The service's own SDK types each of its enums as `Literal[...] | Any`, so a value
 * added on the server must read as drift the provider can show, never as a parse failure. Request
 * schemas use `z.enum` of the same values instead: what a program sends is checked.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]);
}
