// The basic stack: one voice, one agent speaking with it, one number answered by the agent.
import * as pulumi from "@pulumi/pulumi";
import * as va from "pulumi-voiceagent";

const config = new pulumi.Config();

// voice_azure with a name, pitch and rate: a voice both API generations (2023 and 2024) accept.
const voice = new va.Voice("voice", { type: "voice_azure", voiceName: "en-US-JennyNeural", pitch: 0, rate: 1 });

const agent = new va.Agent("receptionist", {
  prompt: "You are a friendly receptionist. Take a message and end the call politely.",
  initialMessage: "Hello, you've reached the front desk.",
  voice: voice.id,
});

const line = new va.PhoneNumber("front-desk", {
  number: config.get("number") ?? "+15550010001",
  inboundAgent: agent.id,
});

export const agentId = agent.id;
export const number = line.number;
export const numberActive = line.active;
