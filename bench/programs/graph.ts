// N agents and N number bindings. `bench:mode` picks the classes: ours (the dynamic provider),
// floor (the no-op dynamic provider), native (pulumi-voiceagent/native; which plugin serves it,
// ours or the no-op native floor, is Pulumi.yaml's choice). Each mode loads only its own module, so
// no mode pays for importing another's. `bench:generation` changes the prompt of the first 10% of
// agents (and so nothing else).
import * as pulumi from "@pulumi/pulumi";
import { benchNumber } from "./numbers.js";

/** The two resource classes a mode declares the graph with. */
interface Classes {
  Agent: new (name: string, args: { prompt: string; voice: string }) => { id: pulumi.Output<string> };
  PhoneNumber: new (name: string, args: { number: string; inboundAgent: pulumi.Input<string> }) => unknown;
}

const config = new pulumi.Config("bench");
const n = config.requireNumber("n");
const mode = config.require("mode");
const generation = config.getNumber("generation") ?? 0;
const voice = config.require("voice");
const changed = Math.ceil(n / 10);

const classes: Classes =
  mode === "floor"
    ? await import("./floor-provider.js").then((m) => ({ Agent: m.FloorAgent, PhoneNumber: m.FloorNumber }))
    : mode === "ours"
      ? await import("pulumi-voiceagent")
      : await import("pulumi-voiceagent/native");

for (let i = 0; i < n; i++) {
  const prompt = `You are agent ${i}. Revision ${i < changed ? generation : 0}.`;
  const agent = new classes.Agent(`agent-${i}`, { prompt, voice });
  new classes.PhoneNumber(`line-${i}`, { number: benchNumber(i), inboundAgent: agent.id });
}
