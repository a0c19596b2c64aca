import { z } from "zod";

// `pulumi stack export` as the CLI reads it (checkpoint version 3): the one schema audit, drift's
// state checks and recover parse. Outputs are never read (in a plain export a secret output is
// ciphertext, and ids are what identify objects); unknown fields pass through untouched, so
// recover writes back what it read.

/** One resource of the state. */
export const StackResourceSchema = z.looseObject({
  urn: z.string(),
  type: z.string(),
  id: z.string().optional(),
  delete: z.boolean().optional(),
});

/**
 * An operation `pulumi up` had started when it was killed: Pulumi records it with the resource's
 * inputs, and a later refresh refuses to guess what became of it.
 */
export const PendingOperationSchema = z.looseObject({
  type: z.string(),
  resource: z.looseObject({ urn: z.string(), type: z.string(), inputs: z.record(z.string(), z.unknown()).optional() }),
});
/** One pending operation of a stack export. */
export type PendingOperation = z.infer<typeof PendingOperationSchema>;

/** The envelope `pulumi stack export` writes. Its version is checked by the reader, to name it in the error. */
export const StackExportSchema = z.looseObject({
  version: z.number().int(),
  deployment: z.looseObject({
    manifest: z.looseObject({ time: z.string().optional(), magic: z.string().optional() }),
    resources: z.array(StackResourceSchema).nullish(),
    pending_operations: z.array(PendingOperationSchema).nullish(),
  }),
});
/** A parsed stack export. */
export type StackExport = z.infer<typeof StackExportSchema>;

/** The checkpoint version this CLI reads (Pulumi 3.x). */
export const EXPORT_VERSION = 3;
