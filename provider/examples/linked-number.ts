// The linked-number example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { type Agent, LinkedNumber } from "pulumi-voiceagent";

declare const support: Agent;
/** The id of the team's Twilio account connection. */
declare const twilioConnectionId: string;

// example begin
new LinkedNumber("own-line", {
  number: "+15550020002",
  telephonyAccountConnection: twilioConnectionId,
  inboundAgent: support.id,
});
// example end
