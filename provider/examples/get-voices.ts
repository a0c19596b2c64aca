// The get-voices example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getVoices } from "pulumi-voiceagent";

// example begin
const azure = await getVoices({ type: "voice_azure" });
// example end
