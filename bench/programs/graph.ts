// N agents and N number bindings. `bench:mode` picks ours or the no-op floor; `bench:generation`
// changes the prompt of the first 10% of agents (and so nothing else).
import * as pulumi from "@pulumi/pulumi";
import * as va from "pulumi-voiceagent";
import { FloorAgent, FloorNumber } from "./floor-provider.js";
import { benchNumber } from "./numbers.js";

const config = new pulumi.Config("bench");
const n = config.requireNumber("n");
const mode = config.require("mode");
const generation = config.getNumber("generation") ?? 0;
const voice = config.require("voice");
const changed = Math.ceil(n / 10);

for (let i = 0; i < n; i++) {
  const prompt = `You are agent ${i}. Revision ${i < changed ? generation : 0}.`;
  const number = benchNumber(i);
  if (mode === "floor") {
    const agent = new FloorAgent(`agent-${i}`, { prompt, voice });
    new FloorNumber(`line-${i}`, { number, inboundAgent: agent.id });
  } else {
    const agent = new va.Agent(`agent-${i}`, { prompt, voice });
    new va.PhoneNumber(`line-${i}`, { number, inboundAgent: agent.id });
  }
}
