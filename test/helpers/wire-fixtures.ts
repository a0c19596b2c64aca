// The service's objects as its wire carries them (snake case, the agent embedded whole), for the
// tests that script a server: one owner, so a change of the wire's shape is made here once.
import { randomUUID } from "node:crypto";

/** The user every fixture belongs to. */
export const USER = randomUUID();

/** A voice, as GET /v1/voices answers it. */
export const voice = { id: randomUUID(), user_id: USER, type: "voice_base", voice_name: "alloy", pitch: 0, rate: 1 };

/** An agent speaking with `voice`, as GET /v1/agents answers it. */
export const agent = {
  id: randomUUID(),
  user_id: USER,
  prompt: "p",
  actions: [],
  voice,
  initial_message: null,
  webhook: null,
};

/** A call placed by `agent` from +15550010001 to +15557650000, as GET /v1/calls answers it. */
export const callOf = (id: string, status = "in_progress") => ({
  id,
  user_id: USER,
  status,
  error_message: null,
  recording_available: false,
  transcript: null,
  to_number: "+15557650000",
  from_number: "+15550010001",
  agent,
});
