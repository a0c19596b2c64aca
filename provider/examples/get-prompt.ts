// The get-prompt example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getPrompt } from "pulumi-voiceagent";

declare const promptId: string;

// example begin
const booking = await getPrompt({ id: promptId });
// example end
