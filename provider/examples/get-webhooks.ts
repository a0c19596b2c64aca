// The get-webhooks example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getWebhooks } from "pulumi-voiceagent";

// example begin
const ended = await getWebhooks({ event: "event_phone_call_ended" });
// example end
