import { z } from "zod";
import {
  UuidSchema,
  VECTOR_DATABASE_TYPES,
  VectorDatabaseCreateSchema,
  VectorDatabaseUpdateSchema,
  type VectorDatabase,
  type VectorDatabaseCreate,
} from "../../schemas/index.js";
import { needsCurrentApi } from "../kit/current-only.js";
import { defineKind } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";
import { refusal, slug } from "../kit/pull.js";

// VectorDatabase: a Pinecone index an agent retrieves from (the Agent's vectorDatabase, by id), an
// object of the current API (2024). Its API key is secret by nature.

/** The types a program may declare; one read back that is not here shows as drift. */
const TYPES = VECTOR_DATABASE_TYPES;

const nonEmpty = () => z.string().min(1, { error: "must not be empty" });
const input = z.object({
  type: z.enum(TYPES).default("vector_database_pinecone"),
  index: nonEmpty(),
  apiKey: nonEmpty(),
  apiEnvironment: nonEmpty(),
  vectorDatabaseId: UuidSchema.optional(),
});

/** A vector database's arguments as the service holds it, but its key. */
function pulledArgs(v: VectorDatabase) {
  return { type: v.type, index: v.index, apiEnvironment: v.api_environment };
}

/** VectorDatabase: vector_databases/create, vector_databases/update and GET /v1/vector_databases. */
export const vectorDatabaseKind = defineKind<VectorDatabase, VectorDatabaseCreate>()({
  kind: "VectorDatabase",
  collection: "vector_databases",
  // Its create sends a secret: recover adopts it by its adopt input, never by the body sent.
  recover: "adopt-only",
  pull: {
    name: (v) => slug(v.index, 4) || "vector-database",
    refuse: (v) => refusal(input.omit({ apiKey: true }).safeParse(pulledArgs(v))),
    // The Pinecone key is never pulled as a value: the user supplies it as secret config.
    adopt: (v) => ({
      args: { vectorDatabaseId: v.id, ...pulledArgs(v) },
      refs: [],
      secrets: [{ key: "apiKey", what: `the Pinecone API key of index ${v.index}` }],
    }),
  },
  doc:
    "A vector database of the current API (2024): a Pinecone index an agent retrieves from (the Agent's " +
    "vectorDatabase, by id). Uses vector_databases/create and vector_databases/update; destroy forgets it (the " +
    "service has no delete). Its apiKey is always secret. On the interface's API (2023) it fails at preview.",
  importId: "its id (a UUID)",
  input,
  fields: {
    type: {
      doc: "The type: vector_database_pinecone (the default and the only one the service knows).",
      wire: "type",
      read: (v) => v.type,
    },
    index: { doc: "The Pinecone index's name.", wire: "index", read: (v) => v.index },
    // A credential: secret everywhere, and write-only (kind.ts `Answer`): a service may echo it,
    // mask it or leave it out, so it reads back as the value sent, and refresh shows no drift.
    apiKey: {
      doc:
        "The Pinecone API key, always secret. Write-only: the service may mask it or leave it out of its answers, so " +
        "it is compared with the value last sent, and a key changed outside Pulumi is not seen (set it here to change it).",
      wire: "api_key",
      imported: (v) => v.api_key ?? undefined,
      secret: true,
    },
    apiEnvironment: {
      doc: 'The Pinecone environment, e.g. "us-east-1-aws".',
      wire: "api_environment",
      read: (v) => v.api_environment,
    },
    vectorDatabaseId: {
      doc:
        "Adopt an existing vector database instead of creating one: its fields are set to these arguments on the " +
        "first `up`. Changing it replaces.",
      wire: null,
      read: (_v, recorded) => recorded.vectorDatabaseId,
      compare: { live: (_recorded, id) => id },
      change: "replaces",
    },
  },
  adopt: "vectorDatabaseId",
  outputs: { userId: ownerOutput() },
  generationCheck: (gen) => needsCurrentApi("VectorDatabase", gen),
  async create({ client, inputs, bodies }) {
    if (!inputs.vectorDatabaseId)
      return client.vector_databases.create(VectorDatabaseCreateSchema.parse(bodies.create));
    await client.vector_databases.get(inputs.vectorDatabaseId);
    return client.vector_databases.update(inputs.vectorDatabaseId, VectorDatabaseUpdateSchema.parse(bodies.update));
  },
  read: ({ client, id }) => client.vector_databases.get(id),
  update: ({ client, id, bodies }) =>
    client.vector_databases.update(id, VectorDatabaseUpdateSchema.parse(bodies.update)),
  forgetNote: "the service has no delete for vector databases; it is removed from the stack and left on the service",
});
