// The get-phone-number example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getPhoneNumber } from "pulumi-voiceagent";

// example begin
const line = await getPhoneNumber({ number: "+15550010001" });
// example end
