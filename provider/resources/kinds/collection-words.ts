// The words for people of each collection the account holds (issue 35: a collection is one entry
// in one table): the wire facts are the wire layer's (schemas/collections.ts), keyed by the same
// name; how reports, pulled programs and stack files speak of it is here, with the kinds. The
// entries' order is the order `voiceagent pull` declares them in: what an agent refers to comes
// before it. The CLI reads nothing else about a collection.
import type { CollectionName } from "../../schemas/index.js";

/** How people read one collection. */
export interface CollectionWords {
  /** One object, in reports: "agent", "number". */
  readonly singular: string;
  /** Its heading in a pulled program (TypeScript and YAML). */
  readonly heading: string;
  /** Its section of a stack file's fleet. */
  readonly section: string;
}

/**
 * The collections an account holds, for pull, audit, drift and recover. A call is placed, never
 * declared or adopted: it is read by recover and snapshot, and has no words here.
 */
export type AccountCollection = Exclude<CollectionName, "calls">;

/** Every account collection's words, in the order `pull` declares them. */
export const COLLECTION_WORDS = {
  voices: { singular: "voice", heading: "Voices", section: "voices" },
  actions: { singular: "action", heading: "Actions", section: "actions" },
  webhooks: { singular: "webhook", heading: "Webhooks", section: "webhooks" },
  prompts: { singular: "prompt", heading: "Prompts", section: "prompts" },
  vector_databases: { singular: "vector database", heading: "Vector databases", section: "vectorDatabases" },
  account_connections: {
    singular: "account connection",
    heading: "Account connections",
    section: "accountConnections",
  },
  agents: { singular: "agent", heading: "Agents", section: "agents" },
  numbers: { singular: "number", heading: "Inbound number bindings", section: "lines" },
} as const satisfies Record<AccountCollection, CollectionWords>;
