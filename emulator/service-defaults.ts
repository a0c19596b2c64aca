import type { FastifyReply, FastifyRequest } from "fastify";
import { isRecord, type WireObject } from "./current.js";

// The service's defaults (EmulatorOptions.serviceDefaults): a FastAPI service answers with its
// models, whose fields have defaults, so an answer carries a value for a field the request left
// out. By default the emulator answers more kindly, leaving such fields out; with this option on,
// every answer under /v1 (a create's, a read's, a list page's, an object embedded in another)
// carries them. It is applied when answering, so what is stored stays what was sent: a value set
// by a request (or by hand) is answered as it is, and only a field nobody set takes the default.

/** An object of the wire, its fields not yet read. */

/** The objects whose answers carry defaults. */
type Shape = "agent" | "number";

/**
 * The defaults, per API generation and object: the values the service was seen to fill in for a
 * field left out (issue 48). vocode-api 0.0.48's types (Fern, FastAPI's OpenAPI) type every such
 * field `Optional[...] = None` and name no default, so this list is what the service answers, not
 * what the types print: an agent's IVR mode is the mode its enumeration names `default`; a
 * number places and takes calls unless told it is outbound only. The interface (2023) and its SDK
 * of August 2023 show no field a default, so that generation's answers are left as they are.
 */
export const SERVICE_DEFAULTS: Record<"2023" | "2024", Partial<Record<Shape, WireObject>>> = {
  "2023": {},
  "2024": {
    agent: { ivr_navigation_mode: "default" },
    number: { outbound_only: false },
  },
};

/** `o` with the defaults of `shape` for the fields it lacks (or holds as null: FastAPI leaves neither). */
function filled(o: WireObject, defaults: WireObject | undefined): WireObject {
  if (!defaults) return o;
  const out = { ...o };
  for (const [k, v] of Object.entries(defaults)) if (out[k] === undefined || out[k] === null) out[k] = v;
  return out;
}

/** One object of a route's answer, with its embedded agent (a number's inbound agent, a call's agent) filled too. */
function fillObject(shape: Shape | undefined, o: WireObject, d: Partial<Record<Shape, WireObject>>): WireObject {
  const own = shape ? filled(o, d[shape]) : o;
  const embedded = (key: string) => (isRecord(own[key]) ? { [key]: filled(own[key], d.agent) } : {});
  return { ...own, ...embedded("inbound_agent"), ...embedded("agent") };
}

/** Which object a route under /v1 answers, by its collection. */
function shapeOf(path: string): Shape | undefined {
  if (path.startsWith("/v1/agents")) return "agent";
  if (path.startsWith("/v1/numbers")) return "number";
  return undefined;
}

/** A route's answer with the service's defaults: the object, or each item of a list page. */
export function withServiceDefaults(api: "2023" | "2024", path: string, body: unknown): unknown {
  const d = SERVICE_DEFAULTS[api];
  const shape = shapeOf(path);
  if (!isRecord(body)) return body;
  if (Array.isArray(body.items))
    return { ...body, items: body.items.map((i) => (isRecord(i) ? fillObject(shape, i, d) : i)) };
  return fillObject(shape, body, d);
}

/**
 * The onSend hook that answers with the service's defaults: a 200 JSON answer under /v1 is
 * rewritten; errors, the admin routes and anything else are left alone.
 */
export function serviceDefaultsHook(api: "2023" | "2024") {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const path = req.url.split("?")[0] ?? "";
    if (!path.startsWith("/v1/") || reply.statusCode !== 200 || typeof payload !== "string" || payload === "")
      return payload;
    return JSON.stringify(withServiceDefaults(api, path, JSON.parse(payload)));
  };
}
