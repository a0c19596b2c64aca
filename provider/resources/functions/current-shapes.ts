import { z } from "zod";
import type { AccountConnection, Prompt, VectorDatabase } from "../../schemas/index.js";

// What the functions answer about the current API's own objects (prompts, vector databases,
// account connections), in the provider's property names, as shapes.ts does for the others.
// Credentials (the Pinecone key, the OpenAI key, the Twilio auth token) come back secret.

const doc = (description: string) => ({ description });
const secret = (description: string) => ({ description, secret: true });
const owner = z.string().meta(doc("The id of the user who owns it on the service."));

/** A prompt, as the functions answer it: its text is secret (like an agent's prompt). */
export const PromptFound = z
  .object({
    id: z.string().meta(doc("The prompt's id (a UUID).")),
    content: z.string().nullable().meta(secret("Its text: secret; null: none (a template only).")),
    collectFields: z.array(z.string()).meta(doc("The names of the fields its agent collects during a call.")),
    contextEndpoint: z.string().nullable().meta(doc("The URL the service asks for context; null: none.")),
    promptTemplate: z.string().nullable().meta(doc("The id of its prompt template; null: none.")),
    userId: owner,
  })
  .meta({ id: "FoundPrompt", description: "A prompt of the account (its text secret)." });

/** A prompt from the service, in the functions' shape. */
export const promptFound = (p: Prompt): z.input<typeof PromptFound> => ({
  id: p.id,
  content: p.content ?? null,
  collectFields: (p.collect_fields ?? []).map((f) => f.name),
  contextEndpoint: p.context_endpoint ?? null,
  promptTemplate: typeof p.prompt_template === "string" ? p.prompt_template : (p.prompt_template?.id ?? null),
  userId: p.user_id,
});

/** A vector database, as the functions answer it: its API key is secret. */
export const VectorDatabaseFound = z
  .object({
    id: z.string().meta(doc("The vector database's id (a UUID).")),
    type: z.string().meta(doc("Its type: vector_database_pinecone (or a newer one).")),
    index: z.string().meta(doc("The Pinecone index's name.")),
    apiEnvironment: z.string().meta(doc("The Pinecone environment.")),
    apiKey: z.string().nullable().meta(secret("The Pinecone API key: secret; null: the service did not say.")),
    userId: owner,
  })
  .meta({ id: "FoundVectorDatabase", description: "A vector database of the account (its API key secret)." });

/** A vector database from the service, in the functions' shape. */
export const vectorDatabaseFound = (v: VectorDatabase): z.input<typeof VectorDatabaseFound> => ({
  id: v.id,
  type: v.type,
  index: v.index,
  apiEnvironment: v.api_environment,
  apiKey: v.api_key ?? null,
  userId: v.user_id,
});

/** An account connection, as the functions answer it: its OpenAI key and Twilio auth token are secret. */
export const AccountConnectionFound = z
  .object({
    id: z.string().meta(doc("The account connection's id (a UUID).")),
    type: z.string().meta(doc("Its type: account_connection_openai, account_connection_twilio (or a newer one).")),
    openaiApiKey: z.string().nullable().meta(secret("The OpenAI API key: secret; null: not an OpenAI connection.")),
    twilioAccountSid: z.string().nullable().meta(doc("The Twilio account SID; null: not a Twilio connection.")),
    twilioAuthToken: z
      .string()
      .nullable()
      .meta(secret("The Twilio auth token: secret; null: not a Twilio connection.")),
    steeringPool: z.array(z.string()).meta(doc("The numbers of its steering pool (a Twilio connection's).")),
    accountSupportsAnyCallerId: z
      .boolean()
      .nullable()
      .meta(doc("Whether the Twilio account may present any caller id; null: the service did not say.")),
    userId: owner,
  })
  .meta({
    id: "FoundAccountConnection",
    description: "An account connection of the account (its credentials secret).",
  });

/** An account connection from the service, in the functions' shape. */
export const accountConnectionFound = (c: AccountConnection): z.input<typeof AccountConnectionFound> => ({
  id: c.id,
  type: c.type,
  openaiApiKey: c.credentials.openai_api_key ?? null,
  twilioAccountSid: c.credentials.twilio_account_sid ?? null,
  twilioAuthToken: c.credentials.twilio_auth_token ?? null,
  steeringPool: c.steering_pool ?? [],
  accountSupportsAnyCallerId: c.account_supports_any_caller_id ?? null,
  userId: c.user_id,
});
