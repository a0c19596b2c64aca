// One tenant of the tenants section (bench/tenants.ts): `tenant:m` agents on a voice the account has,
// each prompt naming its stack, so no two tenants send one body.
import * as pulumi from "@pulumi/pulumi";
import * as va from "pulumi-voiceagent";

const config = new pulumi.Config("tenant");
const m = config.requireNumber("m");
const voice = config.require("voice");
for (let i = 0; i < m; i++) new va.Agent(`agent-${i}`, { prompt: `${pulumi.getStack()} agent ${i}`, voice });
