import type { CollectionName, VoiceAgentClient } from "../../client/index.js";
import type { z } from "zod";
import type { LifecycleCreate, LifecycleRead, LifecycleUpdate } from "./kind.js";
import { ownerOutput } from "./owner.js";

/** The routes of a kind the service can create, read and update (but never delete). */
interface Routes<B, R> {
  create(body: B): Promise<R>;
  get(id: string): Promise<R>;
  update(id: string, body: B): Promise<R>;
}

/**
 * What actions and webhooks share: create, or adopt an existing object by the id in input `adopt`
 * (its values are then set to the program's); read and update by id through the extension routes
 * of `collection`; destroy only forgets, since the service has no delete. `parse` is the endpoint's
 * body schema.
 */
export function adoptable<S extends z.ZodRawShape, R extends { user_id: string }, B>(opts: {
  /** The kind's input schema (for types only). */
  input: z.ZodObject<S>;
  collection: CollectionName;
  noun: string;
  /** The input that names an existing object to adopt, and how to read it. */
  adopt: Extract<keyof z.output<z.ZodObject<S>>, string>;
  adoptId: (inputs: z.output<z.ZodObject<S>>) => string | undefined;
  routes: (client: VoiceAgentClient) => Routes<B, R>;
  parse: (body: unknown) => B;
}) {
  type I = z.output<z.ZodObject<S>>;
  return {
    adopt: opts.adopt,
    outputs: { userId: ownerOutput() },
    collection: opts.collection,
    extensionReads: true as const,
    create({ client, inputs, bodies }: LifecycleCreate<I>): Promise<R> {
      const body = opts.parse(bodies.create);
      const id = opts.adoptId(inputs);
      return id ? opts.routes(client).update(id, body) : opts.routes(client).create(body);
    },
    read: ({ client, id }: LifecycleRead<I>): Promise<R> => opts.routes(client).get(id),
    update: ({ client, id, bodies }: LifecycleUpdate<I>): Promise<R> =>
      opts.routes(client).update(id, opts.parse(bodies.update)),
    forgetNote: `the service has no delete for ${opts.noun}s; it is removed from the stack and left on the service`,
  };
}
