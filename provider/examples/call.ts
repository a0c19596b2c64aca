// The call example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { type Agent, Call } from "pulumi-voiceagent";

declare const agent: Agent;

// example begin
new Call("smoke-call", {
  fromNumber: "+15550010001",
  toNumber: "+15557654321",
  agent: agent.id,
  allowedDestinations: ["+1555*"],
});
// example end
