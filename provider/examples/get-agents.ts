// The get-agents example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getAgents, type GetVoiceResult } from "pulumi-voiceagent";

declare const alloy: GetVoiceResult;

// example begin
const speaking = await getAgents({ voice: alloy.id });
// example end
