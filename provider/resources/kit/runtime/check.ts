import type { z } from "zod";
import type { ApiGeneration } from "../../../client/index.js";
import { autonamed } from "../autoname.js";
import { checkInputs } from "../check.js";
import { partialInputs } from "../derive.js";
import { probeFailure } from "../errors.js";
import type { KindCheckRequest } from "../requests.js";
import type { CheckResult } from "../results.js";
import { generationLacks, hasSince } from "../since.js";
import type { KindParts } from "./kind-parts.js";

/**
 * Check: the inputs by the kind's schema and its own rules, the settings, a bound-once value held
 * by another resource, a display name made, and what the API generation in use lacks; nothing but
 * the generation probe is sent.
 */
export function checkOf<S extends z.ZodRawShape, R extends { id: string }, W>({
  def,
}: KindParts<S, R, W>): (req: KindCheckRequest) => Promise<CheckResult> {
  return async ({ scope, olds, news: written, autonaming }) => {
    const { configuration, urn, host } = scope;
    // Settings not known yet (a preview of a provider configured from outputs) are checked, and
    // the generation asked, once they are known; the inputs are checked now all the same.
    const { problems, resolved } = configuration.unknown ? { problems: [], resolved: undefined } : configuration;
    let news = written;
    let { inputs, known, failures } = checkInputs(def.input, news);
    const all = [...problems, ...failures];
    const given = new Set(Object.keys(news).filter((k) => news[k] !== undefined && news[k] !== null));
    if (all.length === 0 && def.refine) all.push(...def.refine(partialInputs(def, known), given));
    const field = Object.entries<{ boundOnce?: true }>(def.fields).find(([, f]) => f.boundOnce)?.[0];
    const held = field ? known[field] : undefined;
    if (all.length === 0 && urn && field && typeof held === "string")
      all.push(...[host.bindings.hold(def.kind, field, held, urn)].filter((f) => f !== undefined));
    if (all.length) return { inputs: news, failures: all };
    // The verdict must not depend on what this process read before (a preview approved here
    // would fail at up): with "auto", the generation is resolved for this configuration before
    // the first check that depends on it answers, by one read that carries none of the inputs.
    // Unknown settings leave it unknown: the check runs again at up, with them known.
    let gen: ApiGeneration | undefined;
    if (resolved && (def.generationCheck || def.autoname || hasSince(def.fields))) {
      try {
        gen = resolved.api === "auto" ? await scope.client().probeGeneration() : resolved.api;
      } catch (err) {
        return { inputs: news, failures: [probeFailure(def.kind, err)] };
      }
    }
    const named = def.autoname
      ? autonamed(
          def.autoname,
          { olds, news, autonaming, adopted: def.adopt !== undefined && given.has(def.adopt) },
          gen,
        )
      : undefined;
    if (named && "failure" in named) return { inputs: news, failures: [named.failure] };
    if (named) {
      // Checked as if the program had written it: a pattern may make a name the service refuses.
      news = { ...news, [named.property]: named.name };
      ({ inputs, known, failures } = checkInputs(def.input, news));
      if (failures.length) return { inputs: written, failures };
    }
    def.declared?.({ scope, inputs: partialInputs(def, known) });
    // What the generation lacks, from the fields' `since`, before what the kind says itself.
    const lacks = gen ? generationLacks(def.kind, def.fields, gen, partialInputs(def, known)) : [];
    if (lacks.length) return { inputs: news, failures: lacks };
    if (gen && def.generationCheck) {
      const said = def.generationCheck(gen, partialInputs(def, olds), partialInputs(def, known));
      if (said.failures?.length) return { inputs: news, failures: said.failures };
      // Told once per host, not once per resource.
      if (said.note && host.told.first(said.note)) scope.note(said.note);
    }
    return { inputs, failures: [] };
  };
}
