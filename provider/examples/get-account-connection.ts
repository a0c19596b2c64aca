// The get-account-connection example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getAccountConnection } from "pulumi-voiceagent";

declare const accountConnectionId: string;

// example begin
const twilio = await getAccountConnection({ id: accountConnectionId });
// example end
