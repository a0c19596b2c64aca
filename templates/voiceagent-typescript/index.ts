import * as pulumi from "@pulumi/pulumi";
import * as va from "pulumi-voiceagent";

const config = new pulumi.Config();

// The voice the agent speaks with, and the agent itself.
const voice = new va.Voice("voice", { voiceName: "alloy", pitch: 0, rate: 1 });
const agent = new va.Agent("agent", {
  prompt: "You are a friendly receptionist. Take a message and end the call politely.",
  initialMessage: "Hello, how can I help?",
  voice: voice.id,
});

// A number the account owns, answered by the agent: `pulumi config set number +15551234567`.
const number = config.get("number");
const line = number ? new va.PhoneNumber("line", { number, inboundAgent: agent.id }) : undefined;

export const agentId = agent.id;
export const lineNumber = line?.number;
