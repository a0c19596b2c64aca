// One tenant's stack: a voice, an agent with the tenant's prompt on it, and the tenant's number
// answered by that agent. provision.ts sets this config on each stack; nothing here knows of the
// other tenants, so one tenant's change, drift or destroy never touches another's objects.
import * as pulumi from "@pulumi/pulumi";
import * as va from "pulumi-voiceagent";

const config = new pulumi.Config();

const voice = new va.Voice("voice", { type: "voice_azure", voiceName: config.require("voice") });
const agent = new va.Agent("agent", {
  name: config.require("agent"),
  // A tenant's prompt may hold its business rules: secret in config, in the state and in outputs.
  prompt: config.requireSecret("prompt"),
  voice: voice.id,
});
const line = new va.PhoneNumber("line", { number: config.require("number"), inboundAgent: agent.id });

export const agentId = agent.id;
export const number = line.number;
