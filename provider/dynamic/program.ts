import type * as pulumi from "@pulumi/pulumi";
import { Host } from "../host.js";

/**
 * The program's own process, as the dynamic entry sees it: an edge, like the plugin's main and the
 * dynamic provider host. Its one host (provider/host.ts) holds what the program's resources and
 * lookups keep: who holds each bound-once value (dynamic/base.ts), whether the stack's config was
 * checked (dynamic/config-guard.ts), the lookups' clients (dynamic/lookup.ts).
 */
export const PROGRAM_HOST = new Host();

/** One serialized provider per kind, shared by every resource of that kind in the program. */
export const SHIMS = new Map<string, pulumi.dynamic.ResourceProvider>();
