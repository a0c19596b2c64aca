// The get-voice example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { Agent, getVoice } from "pulumi-voiceagent";

// example begin
const alloy = await getVoice({ voiceName: "alloy" });
new Agent("support", { prompt: "You answer support calls.", voice: alloy.id });
// example end
