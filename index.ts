// The root stack: a realistic deployment on the voice agent calling service.
// A voice, an end-of-conversation action and an event webhook; a support agent and a sales agent
// that use them; the support and sales lines bound to their agents.
import * as pulumi from "@pulumi/pulumi";
import * as va from "pulumi-voiceagent";

const config = new pulumi.Config();
const supportNumber = config.get("supportNumber") ?? "+15550010001";
const salesNumber = config.get("salesNumber") ?? "+15550010002";

const voice = new va.Voice("warm-voice", { voiceName: "alloy", pitch: 0, rate: 1 });

const hangUp = new va.Action("end-call", { type: "action_end_conversation" });

const events = new va.Webhook("call-events", {
  url: config.get("webhookUrl") ?? "https://hooks.example.com/voiceagent",
  method: "POST",
  subscriptions: ["event_phone_call_connected", "event_phone_call_ended", "event_transcript"],
});

const support = new va.Agent("support-agent", {
  prompt: "You are the support line of Example Co. Help callers with orders and returns; be brief and kind.",
  initialMessage: "Thanks for calling Example Co support. How can I help?",
  voice: voice.id,
  actions: [hangUp.id],
  webhook: events.id,
});

const sales = new va.Agent("sales-agent", {
  prompt: "You are the sales line of Example Co. Answer questions about plans and prices; never promise discounts.",
  initialMessage: "Hi, this is Example Co sales.",
  voice: voice.id,
  actions: [hangUp.id],
  webhook: events.id,
});

const supportLine = new va.PhoneNumber("support-line", { number: supportNumber, inboundAgent: support.id });
const salesLine = new va.PhoneNumber("sales-line", { number: salesNumber, inboundAgent: sales.id });

export const voiceId = voice.id;
export const supportAgentId = support.id;
export const salesAgentId = sales.id;
export const webhookId = events.id;
export const lines = {
  support: { number: supportLine.number, agent: supportLine.inboundAgent },
  sales: { number: salesLine.number, agent: salesLine.inboundAgent },
};
