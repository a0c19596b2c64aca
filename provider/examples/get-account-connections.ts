// The get-account-connections example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getAccountConnections } from "pulumi-voiceagent";

// example begin
const twilio = await getAccountConnections({ type: "account_connection_twilio" });
// example end
