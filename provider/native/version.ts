import { ownManifest } from "../version-check.js";

/**
 * This package's version: every native resource and provider registers with it, so the engine
 * runs the plugin of the same release (`pulumi-resource-voiceagent` ships in this package).
 */
export const PLUGIN_VERSION: string = ownManifest().version;
