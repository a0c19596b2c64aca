// The get-vector-databases example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getVectorDatabases } from "pulumi-voiceagent";

// example begin
const all = await getVectorDatabases({});
// example end
