// Stack exports built in memory, in the shape `pulumi stack export` writes.

/** A minimal export in the shape `pulumi stack export` writes, for the given resources. */
export function exportOf(
  resources: { kind: string; id: string; name: string }[],
  stack = "dev",
  project = "proj",
): string {
  const urn = (type: string, name: string) => `urn:pulumi:${stack}::${project}::${type}::${name}`;
  return JSON.stringify({
    version: 3,
    deployment: {
      manifest: { time: "2026-11-22T00:00:00Z", magic: "x", version: "v3.259.0" },
      resources: [
        { urn: urn("pulumi:pulumi:Stack", `${project}-${stack}`), custom: false, type: "pulumi:pulumi:Stack" },
        {
          urn: urn("pulumi:providers:pulumi-nodejs", "default"),
          custom: true,
          id: "p1",
          type: "pulumi:providers:pulumi-nodejs",
        },
        ...resources.map((r) => ({
          urn: urn(`pulumi-nodejs:dynamic/voiceagent:${r.kind}`, r.name),
          custom: true,
          id: r.id,
          type: `pulumi-nodejs:dynamic/voiceagent:${r.kind}`,
          outputs: {
            userId: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" },
          },
        })),
      ],
    },
  });
}
