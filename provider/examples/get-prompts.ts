// The get-prompts example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getPrompts } from "pulumi-voiceagent";

// example begin
const all = await getPrompts({});
// example end
