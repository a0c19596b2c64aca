// The agent example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { Agent, type Voice } from "pulumi-voiceagent";

declare const voice: Voice;

// example begin
const agent = new Agent("support", { prompt: "You answer support calls.", voice: voice.id });
// example end
