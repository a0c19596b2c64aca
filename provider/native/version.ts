import { ownManifest } from "../own-manifest.js";

/**
 * This package's version: every native resource and provider registers with it, so the engine
 * runs the plugin of the same release (`pulumi-resource-voiceagent` ships in this package).
 */
export const PLUGIN_VERSION: string = ownManifest().version;

/**
 * Where the Pulumi CLI downloads the plugin when it has none of the wanted version: this project's
 * GitHub releases, asset `pulumi-resource-voiceagent-v<V>-<os>-<arch>.tar.gz` of the release `v<V>`
 * (the CLI fills in `${VERSION}` and appends the asset's name). A plain download: no GitHub API
 * call, so no API rate limit and no token; `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES` replaces it for a
 * mirror. The schema's `pluginDownloadURL` is this, so every SDK carries the same.
 */
export const PLUGIN_DOWNLOAD_URL =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VERSION} is the CLI's placeholder, filled in by the engine, not a template literal.
  "https://github.com/pulumi-voiceagent/pulumi-voiceagent/releases/download/v${VERSION}";
