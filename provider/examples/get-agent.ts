// The get-agent example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getAgent } from "pulumi-voiceagent";

declare const agentId: string;

// example begin
const existing = await getAgent({ id: agentId });
// example end
