import type { KindDescription } from "./describe.js";

// A resource's description in the package schema, read by every SDK generator: its doc text, its
// example in each language and how to import one. The examples use the schema's shortcodes
// ({{% examples %}}/{{% example %}}): each SDK generator keeps only the fences of its own language,
// so Python and Go docs show their own code instead of an empty "Example Usage" heading.

const fence = (lang: string, code: string) => `\`\`\`${lang}\n${code}\n\`\`\``;

/** `agentId` → `agent_id`: the Python spelling of a property. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** `agentId` → `AgentId`: the Go spelling of a property. */
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The Example Usage section of a resource or function: its snippet in each language. */
export function exampleSection(k: Pick<KindDescription, "example" | "examples">): string {
  return [
    "{{% examples %}}",
    "## Example Usage",
    "",
    "{{% example %}}",
    fence("typescript", k.example),
    fence("python", k.examples.python),
    fence("go", k.examples.go),
    fence("yaml", k.examples.yaml),
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}

/** The Import section: the command, or why there is none and what to do instead. */
function importSection(k: KindDescription, token: string): string {
  if (k.importId) {
    const routes = k.extensionReads ? ` It needs the service's extension route that reads ${k.extensionReads}.` : "";
    return `## Import\n\nAn existing ${k.kind} is imported by ${k.importId}.${routes}\n\n${fence("sh", `$ pulumi import ${token} <name> <id>`)}`;
  }
  const adopt = k.adopt
    ? ` Adopt an existing one instead: declare it with its id as \`${k.adopt}\` (\`${snake(k.adopt)}\` in Python, \`${pascal(k.adopt)}\` in Go).`
    : "";
  return `## Import\n\nA ${k.kind} cannot be imported: the service has no route to read one back.${adopt}`;
}

/** The schema description of one kind's resource. */
export function resourceDescription(k: KindDescription, token: string): string {
  return `${k.doc}\n\n${exampleSection(k)}\n\n${importSection(k, token)}`;
}

/** The Python package's README (PyPI's page): what the package is, how to install it and the plugin, what it needs. */
export function pythonReadme(version: string): string {
  return [
    "# pulumi_voiceagent",
    "",
    "Pulumi resources for the voice agent calling service, for Python programs: `Agent`, `Voice`, `Action`, `Webhook`,",
    "`PhoneNumber` (a number's inbound binding), `PurchasedNumber` and `Call`, with the service's enumerations",
    "(`VoiceType`, `ActionType`, `WebhookMethod`, `WebhookEvent`) and a `Provider` for a second account:",
    "`import pulumi_voiceagent as voiceagent`.",
    "",
    "Install it with `pip install pulumi-voiceagent`. It needs `pulumi>=3.269,<4` and the `voiceagent` resource plugin of",
    "the same version, which the Pulumi CLI downloads by itself on the first `pulumi up` (from this project's GitHub",
    "release; it is one executable, so the machine needs no Node.js). Without network access, install it from the",
    "release's archive for your platform:",
    "",
    fence(
      "sh",
      `pulumi plugin install resource voiceagent ${version} --file pulumi-resource-voiceagent-v${version}-linux-amd64.tar.gz`,
    ),
    "",
    "or serve the archives yourself and set `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES` (see the project's docs/native-provider.md).",
    "",
    "Settings come from the stack's config: `pulumi config set voiceagent:baseUrl <url>` and",
    "`pulumi config set --secret voiceagent:token <token>` (or `VOICEAGENT_BASE_URL` and `VOICEAGENT_TOKEN`).",
    "",
  ].join("\n");
}
