// The prompt example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { Prompt } from "pulumi-voiceagent";

// example begin
const booking = new Prompt("booking", {
  content: "You book visits for the clinic. Ask for the caller's email.",
  collectFields: [{ name: "email", label: "Email address" }],
});
// example end
