import type { z } from "zod";
import type { VoiceAgentClient } from "../../../client/index.js";
import { bodiesOf, outputsOf, partialInputs, propertyNames } from "../derive.js";
import { explain, PartialCreateError, type FailureContext } from "../errors.js";
import type { KindDef, LifecycleRequest, Props } from "../kind.js";
import type { KindRequest } from "../requests.js";
import { settle } from "../unsettled.js";

/**
 * What each method of a kind's runtime (kit/runtime/*.ts, composed by kit/runtime.ts) uses of its
 * kind alike: built once per kind, at registration.
 */
export interface KindParts<S extends z.ZodRawShape, R extends { id: string }, W> {
  def: KindDef<S, R, W>;
  /** A failure as the user reads it; given the client, a refused write names the API generation it was written for. */
  fail(op: FailureContext["op"], err: unknown, client?: VoiceAgentClient): Error;
  /** The inputs, checked. */
  parse(props: Props): z.output<z.ZodObject<S>>;
  /** Recorded state, read leniently: a property an older release stored differently is left out. */
  recorded(props: Props): Partial<z.output<z.ZodObject<S>>>;
  /**
   * The one conversion from an answer to outputs, for create, adoption, update, read and import
   * alike: what a write records is what a read of the same object right after records, so a
   * refresh (and `voiceagent drift`) sees only what changed outside Pulumi
   * (test/kinds/outputs-agree.test.ts holds every kind to it on both API generations).
   */
  outs(live: R, inputs: Props): Props;
  /**
   * What a complete listing says of the create recorded under a provisional id, from its recorded
   * `state` (kit/unsettled.ts): the object it made, read back; absent; or unknown, and why.
   */
  settled(where: LifecycleRequest, state: Props): Promise<{ live: R } | { absent: true } | { unknown: string }>;
  /**
   * A create, update or delete ends the refresh of this kind's collection in this process: its reads
   * go one by one again (client/page-reads.ts), so no listing outlives the refresh it was taken for.
   * Check and diff do not: the engine diffs each resource right after its refresh read (its refresh
   * diff), and `refresh --run-program` checks each before reading it; neither sends a write.
   */
  refreshOver(req: KindRequest): void;
  /** Where a lifecycle call of the kind runs: the request's scope, and the client of its configuration. */
  at(req: KindRequest): LifecycleRequest;
}

/** The parts of `def`'s runtime. */
export function kindPartsOf<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
): KindParts<S, R, W> {
  const names = propertyNames(def);
  const recorded = (props: Props) => partialInputs(def, props);
  return {
    def,
    fail: (op, err, client) =>
      err instanceof PartialCreateError
        ? err
        : explain(
            {
              kind: def.kind,
              op,
              names,
              ...(def.adopt ? { adopt: def.adopt } : {}),
              ...(client ? { generation: client.generation.describe() } : {}),
            },
            err,
          ),
    parse: (props) => def.input.parse(props),
    recorded,
    outs: (live, inputs) => outputsOf(def, live, inputs),
    async settled(where, state) {
      const known = recorded(state);
      const said = await settle(def, where, state, bodiesOf(def, known).create);
      if (!("found" in said)) return said;
      const live = def.read ? await def.read({ ...where, id: said.found, recorded: known }) : undefined;
      return live ? { live } : { unknown: `the list shows ${said.found}, but reading it back failed` };
    },
    refreshOver: ({ scope }) => {
      scope.configuration.existingClient()?.pages.close(def.collection);
    },
    at: ({ scope }) => ({ scope, client: scope.client() }),
  };
}
