// The get-actions example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getActions } from "pulumi-voiceagent";

// example begin
const hangUps = await getActions({ type: "action_end_conversation" });
// example end
