import { z } from "zod";

// A JSON value, declared once for every layer that writes or reads one whole (the package schema
// codegen writes, the arguments a pulled program declares, the CLI's literals): zod's own JSON
// schema, so the type is the schema's and no copy of the recursive union drifts from another.

/** Any JSON value. */
export const JsonSchema = z.json();
/** Any JSON value. */
export type Json = z.infer<typeof JsonSchema>;
/** A JSON object. */
export type JsonObject = { [key: string]: Json };
