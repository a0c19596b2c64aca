import {
  ACTION_TYPES_2023,
  ActionWrite2024Schema,
  AGENT_CURRENT_FIELDS,
  type ActionBody,
  type ActionWrite,
  type ActionWrite2024,
  RIME_MODEL_IDS,
  VOICE_TYPES_2024,
  type AgentCreate,
  type AgentCreate2024,
  type AgentUpdate,
  type AgentUpdate2024,
  type AgentUpdateWrite,
  type AgentWrite,
  type VoiceWrite,
  type VoiceWrite2023,
  type VoiceWrite2024,
} from "../schemas/index.js";
import type { ApiGeneration } from "./generation.js";

// The provider asks in one shape; these turn it into the body the generation in use takes
// (docs/contract-current.md). Each returns the body, or says in words what that generation
// cannot express (the caller raises it, naming the generation, before anything is sent).

/** A body, or why the generation cannot take it. */
export type Encoded<T> = { body: T } | { refused: string };

/** The current API's own fields a body holds (set, not undefined), by wire name. */
export function agentCurrentFieldsOf(body: AgentWrite | AgentUpdateWrite): string[] {
  return AGENT_CURRENT_FIELDS.filter((k) => Reflect.get(body, k) !== undefined);
}

/** Why the interface cannot take the current API's own fields a body holds; undefined when it holds none. */
function interfaceLacks(body: AgentWrite | AgentUpdateWrite): string | undefined {
  const fields = agentCurrentFieldsOf(body);
  if (!fields.length) return undefined;
  return (
    `the 2023 API has no ${fields.join(", ")} (the current API's agent fields): leave them unset, or set ` +
    `voiceagent:api 2024 if the service speaks the current API`
  );
}

/** Only the keys set, so an interface body carries nothing the program left unset. */
function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) Reflect.set(out, k, v);
  return out;
}

/**
 * agents/create: the current API gets the prompt inline as `{content}`, or a prompt object's id
 * as the prompt itself (0.0.48's `prompt` is `str | PromptParams`), and its own fields as they are.
 */
export function agentCreateBody(gen: ApiGeneration, body: AgentWrite): Encoded<AgentCreate | AgentCreate2024> {
  const { prompt, prompt_id, ...rest } = body;
  if (gen === "2023") {
    const lacks = interfaceLacks(body);
    if (lacks) return { refused: lacks };
    if (prompt === undefined) return { refused: "an agent on the 2023 API needs its prompt as text" };
    const { voice, actions, initial_message, webhook } = rest;
    return { body: { prompt, voice, ...defined({ actions, initial_message, webhook }) } };
  }
  if (prompt_id === undefined && prompt === undefined)
    return { refused: "an agent needs a prompt: its text, or a prompt object's id" };
  return { body: { ...rest, prompt: prompt_id ?? { content: prompt ?? "" } } };
}

/**
 * agents/update: the current API takes no null. An opening message is cleared by sending "" (the
 * provider reads "" as unset); a webhook cannot be removed at all. Its own fields are sent as they
 * are (0.0.48's update takes each of them but llm_temperature, which the provider never updates).
 */
export function agentUpdateBody(gen: ApiGeneration, body: AgentUpdateWrite): Encoded<AgentUpdate | AgentUpdate2024> {
  if (gen === "2023") {
    const lacks = interfaceLacks(body);
    const { prompt, voice, actions, initial_message, webhook } = body;
    return lacks ? { refused: lacks } : { body: defined({ prompt, voice, actions, initial_message, webhook }) };
  }
  const { prompt, prompt_id, initial_message, webhook, ...rest } = body;
  if (webhook === null) return { refused: "the 2024 API cannot remove an agent's webhook (its update takes no null)" };
  return {
    body: {
      ...rest,
      ...(prompt_id !== undefined
        ? { prompt: prompt_id }
        : prompt === undefined
          ? {}
          : { prompt: { content: prompt } }),
      ...(initial_message === undefined ? {} : { initial_message: initial_message ?? "" }),
      ...(webhook === undefined ? {} : { webhook }),
    },
  };
}

/** numbers/update: the current API cannot unbind a number (no null for inbound_agent). */
export function numberUpdateBody(
  gen: ApiGeneration,
  inboundAgent: string | null,
): Encoded<{ inbound_agent: string | null }> {
  if (inboundAgent === null && gen === "2024") {
    return { refused: "the 2024 API cannot unbind a number (numbers/update takes no null for inbound_agent)" };
  }
  return { body: { inbound_agent: inboundAgent } };
}

/** Which fields each voice type has in each generation, for the messages below. */
const FIELDS_2024: Record<(typeof VOICE_TYPES_2024)[number], string> = {
  voice_azure: "voice_name (pitch, rate optional)",
  voice_eleven_labs: "voice_id (api_key and the tuning fields optional)",
  voice_play_ht: "voice_id (api_user_id, api_key and the tuning fields optional)",
  voice_rime: "speaker (speed_alpha, model_id optional)",
  voice_vocode: 'voice_id ("joe")',
};

/**
 * voices/create and voices/update. The interface takes one shape (voice_name, pitch, rate) for
 * any type; the current API takes one of five types, each with only its own fields.
 */
export function voiceBody(gen: ApiGeneration, v: VoiceWrite): Encoded<VoiceWrite2023 | VoiceWrite2024> {
  const type = v.type ?? "voice_base";
  if (gen === "2023") {
    if (v.voice_name === undefined || v.pitch === undefined || v.rate === undefined) {
      return { refused: `a ${type} voice on the 2023 API needs voice_name, pitch and rate` };
    }
    return { body: { type, voice_name: v.voice_name, pitch: v.pitch, rate: v.rate } };
  }
  const need = (field: string) => ({ refused: `a ${type} voice on the 2024 API needs ${field}` });
  switch (type) {
    case "voice_azure":
      if (!v.voice_name) return need(FIELDS_2024.voice_azure);
      return { body: { type, voice_name: v.voice_name, ...opt("pitch", v.pitch), ...opt("rate", v.rate) } };
    case "voice_eleven_labs":
      if (!v.voice_id) return need(FIELDS_2024[type]);
      return {
        body: {
          type,
          voice_id: v.voice_id,
          ...defined({
            api_key: v.api_key,
            stability: v.stability,
            similarity_boost: v.similarity_boost,
            optimize_streaming_latency: v.optimize_streaming_latency,
            model_id: v.model_id,
            experimental_input_streaming: v.experimental_input_streaming,
          }),
        },
      };
    case "voice_play_ht":
      if (!v.voice_id) return need(FIELDS_2024[type]);
      return {
        body: {
          type,
          voice_id: v.voice_id,
          ...defined({
            api_user_id: v.api_user_id,
            api_key: v.api_key,
            version: v.version,
            speed: v.speed,
            quality: v.quality,
            temperature: v.temperature,
            top_p: v.top_p,
            text_guidance: v.text_guidance,
            voice_guidance: v.voice_guidance,
            experimental_remove_silence: v.experimental_remove_silence,
          }),
        },
      };
    case "voice_rime": {
      if (!v.speaker) return need(FIELDS_2024.voice_rime);
      const model = v.model_id;
      if (model !== undefined && !isRimeModel(model))
        return { refused: `a voice_rime voice's model_id is one of ${RIME_MODEL_IDS.join(", ")}` };
      return { body: { type, speaker: v.speaker, ...defined({ speed_alpha: v.speed_alpha, model_id: model }) } };
    }
    case "voice_vocode":
      if (v.voice_id !== undefined && v.voice_id !== "joe") return need(FIELDS_2024.voice_vocode);
      return { body: { type, voice_id: "joe" } };
    case "voice_base":
      return { refused: `voice_base does not exist on the 2024 API: use one of ${VOICE_TYPES_2024.join(", ")}` };
  }
}

const isRimeModel = (m: string): m is (typeof RIME_MODEL_IDS)[number] => RIME_MODEL_IDS.some((x) => x === m);

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  // A one-key object whose key is K: built from a literal the compiler checks below.
  const out: { [P in K]?: V } = {};
  if (value !== undefined) out[key] = value;
  return out;
}

/**
 * actions/create and actions/update. The interface has three types and no trigger: a function-call
 * trigger is what it does anyway (the model decides), so it is left out; anything else it cannot
 * express is refused. The current API takes the body as it is; an update that sets no trigger
 * sends the function call, since its update keeps a trigger it is not sent (a phrase trigger the
 * program dropped would stay).
 */
export function actionBody(
  gen: ApiGeneration,
  body: ActionBody,
  write: "create" | "update",
): Encoded<ActionWrite | ActionWrite2024> {
  const { action_trigger, ...rest } = body;
  if (gen === "2023") {
    const type = body.type ?? "action_end_conversation";
    const known = ACTION_TYPES_2023.find((t) => t === type);
    if (!known)
      return {
        refused:
          `the 2023 API has no ${type} (it has ${ACTION_TYPES_2023.join(", ")}): ` +
          "set voiceagent:api 2024 if the service speaks the current API",
      };
    if (action_trigger?.type === "action_trigger_phrase_based")
      return {
        refused:
          "the 2023 API has no action triggers (its model decides when to act): leave actionTrigger unset, or set voiceagent:api 2024",
      };
    return { body: { type: known, config: rest.config ?? {} } };
  }
  const trigger =
    action_trigger ?? (write === "update" ? { type: "action_trigger_function_call" as const } : undefined);
  return {
    body: ActionWrite2024Schema.parse({
      ...rest,
      type: rest.type ?? "action_end_conversation",
      ...(trigger ? { action_trigger: trigger } : {}),
    }),
  };
}

/** The generation an action is written in when nothing has told it yet: the current API's for what only it has. */
export function actionGeneration(body: ActionBody): ApiGeneration {
  const type = body.type ?? "action_end_conversation";
  return ACTION_TYPES_2023.some((t) => t === type) && body.action_trigger?.type !== "action_trigger_phrase_based"
    ? "2023"
    : "2024";
}
