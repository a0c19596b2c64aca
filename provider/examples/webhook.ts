// The webhook example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { Webhook } from "pulumi-voiceagent";

// example begin
const hook = new Webhook("events", { url: "https://hooks.example.com/va", subscriptions: ["event_message"] });
// example end
