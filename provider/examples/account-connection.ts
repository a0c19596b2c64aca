// The account-connection example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import type * as pulumi from "@pulumi/pulumi";
import { AccountConnection } from "pulumi-voiceagent";

declare const twilioAuthToken: pulumi.Output<string>;

// example begin
const twilio = new AccountConnection("twilio", {
  type: "account_connection_twilio",
  twilioAccountSid: "AC0123456789abcdef0123456789abcdef",
  twilioAuthToken,
  steeringPool: ["+15550010001"],
});
// example end
