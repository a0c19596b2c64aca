// The get-vector-database example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getVectorDatabase } from "pulumi-voiceagent";

// example begin
const faq = await getVectorDatabase({ index: "clinic-faq" });
// example end
