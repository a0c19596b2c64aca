// The whole program: the fleet is declared in the stack file, Pulumi.<stack>.yaml, under `fleet`:
//
// config:
//   <project>:fleet:
//     voices:
//       warm: { voiceName: alloy, pitch: 0, rate: 1 }
//     agents:
//       support: { prompt: You answer support calls., voice: warm }
//     lines:
//       main: { number: "+15550010001", agent: support }   # a number the account owns
//       sales: { buy: { areaCode: "415" }, agent: support } # one to buy (protected)
//
// Secrets: pulumi config set --secret --path 'fleet.agents.support.prompt' '...'
import { Fleet, fleetFromConfig } from "pulumi-voiceagent";

const fleet = new Fleet("fleet", fleetFromConfig());
export const ids = fleet.ids;
