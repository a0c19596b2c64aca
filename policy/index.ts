// The pack's entry, run by `pulumi preview --policy-pack <this package's folder>`: constructing
// the PolicyPack starts its gRPC server and prints the port the engine reads. Import
// `pulumi-voiceagent-policy/policies` to get the rules without serving them.
import { PolicyPack } from "@pulumi/policy";
import { PACK_NAME, policies } from "./policies.js";

new PolicyPack(PACK_NAME, { policies });
