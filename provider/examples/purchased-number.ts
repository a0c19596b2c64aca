// The purchased-number example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { type Agent, PhoneNumber, PurchasedNumber } from "pulumi-voiceagent";

declare const support: Agent;

// example begin
const main = new PurchasedNumber("main", { areaCode: "415" }, { protect: true });
new PhoneNumber("main-line", { number: main.number, inboundAgent: support.id });
// example end
