import { z } from "zod";
import { LIMITS, PromptCreateSchema, UuidSchema, type Prompt, type PromptCreate } from "../../schemas/index.js";
import { closedObject, inputFailure } from "../kit/check.js";
import { needsCurrentApi } from "../kit/current-only.js";
import { defineKind } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";
import { present, refusal, slug } from "../kit/pull.js";

// Prompt: an object of the current API (2024) that agents refer to by id (the Agent's promptId).

/** The field types a program may declare (the service knows one); one read back that is not here shows as drift. */
const FIELD_TYPES = ["field_type_email"] as const;

const CollectFieldInput = closedObject({
  // A string checked against the known types: a type read back that a newer service added is still a value.
  fieldType: z
    .string()
    .refine((t) => FIELD_TYPES.some((k) => k === t), { error: `must be one of ${FIELD_TYPES.join(", ")}` })
    .default("field_type_email")
    .meta({ description: "The field's type: field_type_email (the default, and the only one the service knows)." }),
  label: z
    .string()
    .min(1, { error: "must not be empty" })
    .meta({ description: "What the agent calls the field when it asks for it." }),
  name: z
    .string()
    .min(1, { error: "must not be empty" })
    .meta({ description: "The field's name in what is collected." }),
  description: z
    .string()
    .min(1, { error: "must not be empty" })
    .optional()
    .meta({ description: "What the field is for, for the agent." }),
}).meta({ description: "A field a prompt's agent collects during a call (the service's `CollectField`)." });
type CollectFieldInput = z.output<typeof CollectFieldInput>;

const input = z.object({
  content: z.string().min(1, { error: "must not be empty" }).optional(),
  collectFields: z.array(CollectFieldInput).optional(),
  contextEndpoint: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .max(LIMITS.urlMax)
    .optional(),
  promptTemplate: UuidSchema.optional(),
  promptId: UuidSchema.optional(),
});

/** The body of prompts/create as the fields send it (each field type checked at preview, then by PromptCreateSchema). */
type PromptWire = Omit<PromptCreate, "collect_fields"> & {
  collect_fields: { field_type: string; label: string; name: string; description?: string }[];
};

/** A collected field as the service holds it, in the program's names (an unknown type kept as it came). */
function fieldRead(f: NonNullable<Prompt["collect_fields"]>[number]) {
  return {
    fieldType: f.field_type ?? "field_type_email",
    label: f.label,
    name: f.name,
    ...(f.description ? { description: f.description } : {}),
  };
}

/** A prompt's arguments as the service holds it (a field of an unknown type kept, so the check names it). */
function promptArgs(p: Prompt) {
  const fields = p.collect_fields?.map(fieldRead);
  return {
    ...present({
      content: p.content,
      contextEndpoint: p.context_endpoint,
      promptTemplate: typeof p.prompt_template === "string" ? p.prompt_template : p.prompt_template?.id,
    }),
    ...(fields?.length ? { collectFields: fields } : {}),
  };
}

/** Prompt: prompts/create, prompts/update and GET /v1/prompts of the current API. */
export const promptKind = defineKind<Prompt, PromptWire>()({
  kind: "Prompt",
  collection: "prompts",
  pull: {
    // Its first words: a prompt has no name of its own.
    name: (p) => slug(p.content ?? "", 4) || "prompt",
    refuse: (p) =>
      p.content || p.prompt_template
        ? refusal(input.safeParse(promptArgs(p)))
        : "it has neither content nor a template: the provider would refuse it",
    adopt: (p) => ({ args: { promptId: p.id, ...promptArgs(p) }, refs: [] }),
  },
  doc:
    "A prompt of the current API (2024): instructions an agent refers to by id (the Agent's promptId), with the " +
    "fields to collect during a call. Uses prompts/create and prompts/update; destroy forgets it (the service has " +
    "no delete). On the interface's API (2023) it fails at preview.",
  importId: "its id (a UUID)",
  input,
  fields: {
    content: {
      doc:
        "The prompt's text. Set content, promptTemplate, or both (or neither with promptId). Unset: the service " +
        "keeps what it holds (prompts/update leaves out what it is not sent).",
      wire: "content",
      read: (p) => p.content ?? undefined,
      // A prompt adopted by promptId alone keeps its text: what it holds is no difference.
      unset: "service-decides",
    },
    collectFields: {
      doc:
        "Fields the agent collects during a call: each a `name`, a `label`, an optional `description` and a " +
        "`fieldType` (field_type_email, the default and the only type the service knows). Unset: the service keeps what it holds.",
      wire: "collect_fields",
      toWire: (fields: CollectFieldInput[]) =>
        fields.map((f) => ({
          field_type: f.fieldType,
          label: f.label,
          name: f.name,
          ...(f.description === undefined ? {} : { description: f.description }),
        })),
      read: (p) => p.collect_fields?.map(fieldRead),
      unset: "service-decides",
    },
    contextEndpoint: {
      doc: "A URL the service asks for context before a call. Unset: the service keeps what it holds (prompts/update cannot clear it).",
      wire: "context_endpoint",
      read: (p) => p.context_endpoint ?? undefined,
      unset: "service-decides",
    },
    promptTemplate: {
      doc: "The id of a prompt template of the account. Unset: the service keeps what it holds.",
      wire: "prompt_template",
      read: (p) => (typeof p.prompt_template === "string" ? p.prompt_template : p.prompt_template?.id),
      unset: "service-decides",
    },
    promptId: {
      doc: "Adopt an existing prompt instead of creating one: its fields are set to these arguments on the first `up`. Changing it replaces.",
      wire: null,
      read: (_p, recorded) => recorded.promptId,
      compare: { live: (_recorded, id) => id },
      change: "replaces",
    },
  },
  adopt: "promptId",
  outputs: { userId: ownerOutput() },
  refine: (inputs) =>
    inputs.content === undefined && inputs.promptTemplate === undefined && inputs.promptId === undefined
      ? [inputFailure("content is required (or promptTemplate): a prompt needs its text or a template")]
      : [],
  generationCheck: (gen) => needsCurrentApi("Prompt", gen),
  async create({ client, inputs, bodies }) {
    const body = PromptCreateSchema.parse(bodies.create);
    if (!inputs.promptId) return client.prompts.create(body);
    // Adoption (`pulumi import` cannot work for dynamic providers): it must exist, then takes the program's values.
    await client.prompts.get(inputs.promptId);
    return client.prompts.update(inputs.promptId, body);
  },
  read: ({ client, id }) => client.prompts.get(id),
  update: ({ client, id, bodies }) => client.prompts.update(id, PromptCreateSchema.parse(bodies.update)),
  forgetNote: "the service has no delete for prompts; it is removed from the stack and left on the service",
});
