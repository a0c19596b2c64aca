// The phone-number example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { type Agent, PhoneNumber } from "pulumi-voiceagent";

declare const support: Agent;

// example begin
new PhoneNumber("main-line", { number: "+15550010001", inboundAgent: support.id });
// example end
