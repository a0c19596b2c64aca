// One program for staging and production: stack config decides which agent answers the main
// line, so promoting the sales agent is a one-line config change that rebinds the number in
// place (numbers/update; never a cancel). Staging may also place a test call to an allowed number.
import * as pulumi from "@pulumi/pulumi";
import * as va from "pulumi-voiceagent";

const config = new pulumi.Config();
const stack = pulumi.getStack();
const mainLine = config.require("mainLine");
const mainLineAgent = config.get("mainLineAgent") ?? "support";
if (mainLineAgent !== "support" && mainLineAgent !== "sales") {
  throw new Error(`mainLineAgent must be "support" or "sales", not "${mainLineAgent}"`);
}

const voice = new va.Voice("voice", { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" });
const hangUp = new va.Action("end-call", { type: "action_end_conversation" });

const agents = {
  support: new va.Agent("support", {
    prompt: `You are ${stack} support. Resolve the caller's issue or take a message.`,
    voice: voice.id,
    actions: [hangUp.id],
  }),
  sales: new va.Agent("sales", {
    prompt: `You are ${stack} sales. Explain the plans; hand pricing questions to a human.`,
    voice: voice.id,
    actions: [hangUp.id],
  }),
};

const line = new va.PhoneNumber("main-line", {
  number: mainLine,
  inboundAgent: agents[mainLineAgent].id,
});

if (config.getBoolean("placeTestCall")) {
  new va.Call(
    "smoke-call",
    {
      fromNumber: mainLine,
      toNumber: config.get("testCallTo") ?? "+15557650000",
      agent: agents[mainLineAgent].id,
      allowedDestinations: ["+1555765*"],
    },
    { dependsOn: [line] },
  );
}

export const mainLineNumber = line.number;
export const mainLineAgentId = line.inboundAgent;
export const supportAgentId = agents.support.id;
export const salesAgentId = agents.sales.id;
