// The get-account example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getAccountOutput } from "pulumi-voiceagent";

// example begin
export const owner = getAccountOutput().userId;
// example end
