import { z } from "zod";

// Vector databases of the current API (2024, SDK 0.0.48): one type, a Pinecone index an agent
// retrieves from. Its API key is secret by nature (secrets.ts).

/** Body of vector_databases/create, and a vector database given inline to an agent. */
export const VectorDatabaseCreateSchema = z.object({
  type: z.literal("vector_database_pinecone").default("vector_database_pinecone"),
  index: z.string().min(1),
  api_key: z.string().min(1),
  api_environment: z.string().min(1),
});
/** Body of vector_databases/create, as sent. */
export type VectorDatabaseCreate = z.input<typeof VectorDatabaseCreateSchema>;

/** Body of vector_databases/update: the type, and the fields to replace. */
export const VectorDatabaseUpdateSchema = z.object({
  type: z.literal("vector_database_pinecone").default("vector_database_pinecone"),
  index: z.string().min(1).optional(),
  api_key: z.string().min(1).optional(),
  api_environment: z.string().min(1).optional(),
});
/** Body of vector_databases/update, as sent. */
export type VectorDatabaseUpdate = z.input<typeof VectorDatabaseUpdateSchema>;

/** A vector database as the service returns it; an unknown type is kept (drift). */
export const VectorDatabaseSchema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  type: z.string(),
  index: z.string(),
  /** Secret: a service may leave it out of its answers (the provider then keeps the recorded one). */
  api_key: z.string().nullish(),
  api_environment: z.string(),
});
/** A vector database. */
export type VectorDatabase = z.infer<typeof VectorDatabaseSchema>;
