// The get-call example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getCallOutput } from "pulumi-voiceagent";

declare const callId: string;

// example begin
export const callStatus = getCallOutput({ id: callId }).status;
// example end
