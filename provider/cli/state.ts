import { CliError } from "./errors.js";
import { kindOfType } from "../identity.js";
import { KIND_NAMES, RESOURCE_KINDS, type AccountCollection, type KindName } from "./kinds.js";
import { EXPORT_VERSION, StackExportSchema } from "./stack-export.js";

/** An account object a stack manages, found by id in its state. */
export interface ManagedRef {
  kind: KindName;
  collection: AccountCollection;
  /** The resource id: a UUID, or for a 0.1.0 PhoneNumber the E.164 number. */
  id: string;
  urn: string;
  /** The resource's name (the URN's last part). */
  name: string;
  /** Which stack manages it: `<project>/<stack>` from the URN. */
  stack: string;
}

/**
 * Parses the text of a stack export into the objects it manages. `source` names the file or
 * stack in the one-line error a file that is not an export gets.
 */
export function parseStackExport(text: string, source: string): ManagedRef[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(
      `${source} is not JSON, so not a Pulumi stack export (write one with \`pulumi stack export --file <file>\`)`,
    );
  }
  const parsed = StackExportSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first ? ` (${first.path.join(".") || "top level"}: ${first.message})` : "";
    throw new CliError(
      `${source} is not a Pulumi stack export${where}: write one with \`pulumi stack export --file <file>\``,
    );
  }
  if (parsed.data.version !== EXPORT_VERSION) {
    throw new CliError(
      `${source} is a version ${parsed.data.version} stack export; this command reads version ${EXPORT_VERSION} (Pulumi 3.x)`,
    );
  }
  const refs: ManagedRef[] = [];
  for (const r of parsed.data.deployment.resources ?? []) {
    const kind = kindOfType(r.type, KIND_NAMES);
    const collection = kind ? RESOURCE_KINDS[kind] : undefined;
    if (!kind || !collection || !r.id) continue;
    const { stack, project, name } = splitUrn(r.urn);
    refs.push({ kind, collection, id: r.id, urn: r.urn, name, stack: `${project}/${stack}` });
  }
  return refs;
}

/** The parts of `urn:pulumi:<stack>::<project>::<type>::<name>`. */
export function splitUrn(urn: string): { stack: string; project: string; name: string } {
  const parts = urn.replace(/^urn:pulumi:/, "").split("::");
  return { stack: parts[0] ?? "", project: parts[1] ?? "", name: parts.slice(3).join("::") || (parts.at(-1) ?? urn) };
}
