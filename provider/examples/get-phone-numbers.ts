// The get-phone-numbers example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { type Agent, getPhoneNumbers, PhoneNumber } from "pulumi-voiceagent";

declare const agent: Agent;

// example begin
const free = await getPhoneNumbers({ active: true, bound: false });
new PhoneNumber("main-line", { number: free.numbers[0]!.number, inboundAgent: agent.id });
// example end
