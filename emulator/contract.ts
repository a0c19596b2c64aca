import type { ValidationIssue } from "pulumi-voiceagent/schemas";

// The service's limits and formats, written here on their own rather than imported from the
// provider's schemas: the routes' zod schemas are the provider's (shapes and types), so without this
// the emulator could never disagree with the provider, and no test could show that it does. The
// limits are the decisions recorded in provider/README.md (the contract says "not shown");
// test/emulator/contract.test.ts holds the provider's checks and these to the same answers.

/** Size and range limits, per wire field. */
export const SERVICE_LIMITS = {
  prompt: 100_000,
  initial_message: 10_000,
  voice_name: 200,
  url: 2_048,
  actions: 50,
  pitch: [-100, 100],
  rate: [0, 100],
} as const;

const E164 = /^\+[1-9][0-9]{1,14}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Body fields holding one id, and those holding a phone number. */
const ID_FIELDS = ["voice", "webhook", "inbound_agent", "agent"];
const NUMBER_FIELDS = ["from_number", "to_number"];

type Loc = (string | number)[];
const issue = (loc: Loc, msg: string, type: string): ValidationIssue => ({ loc, msg, type });

function textTooLong(loc: Loc, v: unknown, max: number): ValidationIssue[] {
  return typeof v === "string" && [...v].length > max
    ? [issue(loc, `String should have at most ${max} characters`, "string_too_long")]
    : [];
}

function outOfRange(loc: Loc, v: unknown, [min, max]: readonly [number, number]): ValidationIssue[] {
  if (typeof v !== "number") return [];
  if (!Number.isInteger(v)) return [issue(loc, "Input should be a valid integer", "int_type")];
  return v < min || v > max ? [issue(loc, `Input should be between ${min} and ${max}`, "range")] : [];
}

function urlIssues(loc: Loc, v: unknown): ValidationIssue[] {
  if (typeof v !== "string") return [];
  if (v.length > SERVICE_LIMITS.url)
    return [issue(loc, `URL should have at most ${SERVICE_LIMITS.url} characters`, "url_too_long")];
  if (/\s/.test(v)) return [issue(loc, "Input should be a valid URL, whitespace is not allowed", "url_parsing")];
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return [issue(loc, "Input should be a valid URL", "url_parsing")];
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return [issue(loc, "URL scheme should be 'http' or 'https'", "url_scheme")];
  return url.username || url.password ? [issue(loc, "URL should not contain credentials", "url_credentials")] : [];
}

/** What a request breaks of the contract's limits and formats, FastAPI-style; [] when nothing. */
export function contractIssues(query: unknown, body: unknown): ValidationIssue[] {
  const found: ValidationIssue[] = [];
  const q = isObject(query) ? query : {};
  if (typeof q.id === "string" && !UUID.test(q.id))
    found.push(issue(["query", "id"], "Input should be a valid UUID", "uuid_parsing"));
  if (typeof q.phone_number === "string" && !E164.test(q.phone_number))
    found.push(issue(["query", "phone_number"], "Input should be an E.164 number", "value_error"));
  if (!isObject(body)) return found;
  found.push(...textTooLong(["body", "prompt"], body.prompt, SERVICE_LIMITS.prompt));
  found.push(...textTooLong(["body", "initial_message"], body.initial_message, SERVICE_LIMITS.initial_message));
  found.push(...textTooLong(["body", "voice_name"], body.voice_name, SERVICE_LIMITS.voice_name));
  found.push(...outOfRange(["body", "pitch"], body.pitch, SERVICE_LIMITS.pitch));
  found.push(...outOfRange(["body", "rate"], body.rate, SERVICE_LIMITS.rate));
  found.push(...urlIssues(["body", "url"], body.url));
  for (const f of ID_FIELDS) {
    const v = body[f];
    if (typeof v === "string" && !UUID.test(v))
      found.push(issue(["body", f], "Input should be a valid UUID", "uuid_parsing"));
  }
  for (const f of NUMBER_FIELDS) {
    const v = body[f];
    if (typeof v === "string" && !E164.test(v))
      found.push(issue(["body", f], "Input should be an E.164 number", "value_error"));
  }
  if (Array.isArray(body.actions)) {
    if (body.actions.length > SERVICE_LIMITS.actions)
      found.push(issue(["body", "actions"], `List should have at most ${SERVICE_LIMITS.actions} items`, "too_long"));
    if (new Set(body.actions).size !== body.actions.length)
      found.push(issue(["body", "actions"], "List should not hold the same action twice", "duplicate"));
  }
  return found;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
