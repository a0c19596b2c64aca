// The voice example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { Voice } from "pulumi-voiceagent";

// example begin
const voice = new Voice("warm", { voiceName: "alloy", pitch: 0, rate: 1 });
// example end
