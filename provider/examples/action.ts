// The action example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { Action } from "pulumi-voiceagent";

// example begin
const hangUp = new Action("end-call", { type: "action_end_conversation" });
// example end
