import type { z } from "zod";
import { collections } from "../schemas/index.js";
import { isRouteMissing, type CollectionName } from "./capabilities.js";
import { ApiGenerationError, type ApiGeneration, type Generation } from "./generation.js";
import type { Listing } from "./listing.js";
import { matchesSent } from "./match.js";
import type { PageReads } from "./page-reads.js";
import { createOnce, type CreateContext } from "./reconcile.js";
import type { Send } from "./transport.js";
import type { Encoded } from "./wire.js";

// What the namespaces of one client (agents.ts, voices.ts, ...) share, built once by `createClient`:
// the generation a write goes by, and the two ways a write is wrapped (read-your-writes, exactly once).

/** The parts of one client every collection's namespace writes and reads with. */
export interface ClientParts {
  send: Send;
  generation: Generation;
  /** What one create shares with the others of this client (reconcile.ts). */
  ctx: CreateContext;
  /** Reads in pages (page-reads.ts): the kit opens a collection for a refresh's reads. */
  pages: PageReads;
  /** The generation for a write that differs between them; asks the agent list once if unknown (a failed ask assumes 2023). */
  resolveGeneration(): Promise<ApiGeneration>;
  /**
   * The generation the kinds' checks go by, resolved once for this client (one provider
   * configuration) before the first check that depends on it answers. It asks even when an answer
   * seen before told (a refresh's reads), so a preview sends the same requests whatever ran first.
   * Unlike a write's, a failed ask is not taken for 2023 but rejects, the same for every check.
   */
  probeGeneration(): Promise<ApiGeneration>;
  /** For a write both generations take alike: the one known, else the interface's. */
  likely(): ApiGeneration;
  /** The body a write sends, or the generation's refusal of it thrown before anything is sent. */
  encoded<T>(e: Encoded<T>, method: string, path: string): T;
  /** A write's answer, its collection's listing dropped before and after it (read-your-writes). */
  wrote<T>(collection: CollectionName, write: Promise<T>): Promise<T>;
  /** The exactly-once create in one collection, matching on every field sent but its credentials. */
  once<T extends { id: string }>(
    collection: CollectionName,
    noun: string,
    body: object,
    post: (deadline: number) => Promise<T>,
    listing: (deadline: number) => Promise<Listing<T>>,
  ): Promise<T>;
}

/** The parts of one client, over its transport's `send`, its generation and its create context. */
export function createParts(generation: Generation, ctx: CreateContext, pages: PageReads): ClientParts {
  const { send } = ctx.transport;
  /**
   * Asks the service which generation it speaks: one page of one agent, a read that carries
   * nothing of what the program declares. Its answer is observed like any other.
   */
  const askAgentList = async (): Promise<ApiGeneration | undefined> => {
    try {
      await send("listAgents", { query: { page: 1, size: 1 } });
      return generation.known();
    } catch (err) {
      // The interface has no list routes; the current API has them all.
      if (isRouteMissing(err)) return "2023";
      throw err;
    }
  };
  let probed: Promise<ApiGeneration> | undefined;
  const wrote = <T>(collection: CollectionName, write: Promise<T>): Promise<T> =>
    pages.writing(collection, () => write);
  return {
    send,
    generation,
    ctx,
    pages,
    resolveGeneration: () => generation.resolve(() => askAgentList().catch(() => undefined)),
    probeGeneration: () => (probed ??= askAgentList().then((g) => generation.resolve(async () => g))),
    likely: () => generation.known() ?? "2023",
    encoded: (e, method, path) => {
      if ("refused" in e) throw new ApiGenerationError(e.refused, method, path, generation);
      return e.body;
    },
    wrote,
    once: (collection, noun, body, post, listing) =>
      wrote(
        collection,
        createOnce(
          {
            collection,
            noun,
            body,
            unechoed: collections[collection].secrets,
            overlaps: (other) => matchesSent(body, other, collections[collection].secrets),
            send: post,
            list: listing,
            matches: (item) => matchesSent(body, item, collections[collection].secrets),
          },
          ctx,
        ),
      ),
  };
}

/** An irreversible act's answer, read if it can be; undefined if not (the act was done all the same). */
export function readAck<T extends z.ZodType>(schema: T, answer: unknown): z.output<T> | undefined {
  const read = schema.safeParse(answer);
  return read.success ? read.data : undefined;
}
