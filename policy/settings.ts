// A rule's settings as the pack's config gives them. The CLI checks a config file against each
// rule's JSON schema, but @pulumi/policy cannot forbid keys the schema does not name: a misspelt
// setting (`allowedNumber`) would silently leave its rule with nothing to enforce. So a key the
// rule does not know fails the run, naming it.
import type { PolicyConfigSchema } from "@pulumi/policy";

/** The settings of `policy` from `getConfig()`, refusing a key its schema does not name. */
export function settingsOf<C extends object>(
  policy: string,
  schema: PolicyConfigSchema["properties"] | undefined,
  given: Partial<C>,
): Partial<C> {
  const known = Object.keys(schema ?? {});
  const unknown = Object.keys(given).filter((k) => !known.includes(k));
  if (unknown.length > 0)
    throw new Error(
      `the pack's config for ${policy} has ${unknown.map((k) => `"${k}"`).join(", ")}, which it does not take ` +
        `(${known.length ? `its settings: ${known.join(", ")}` : "it takes no settings"}, and enforcementLevel); ` +
        "fix the --policy-pack-config file and run again",
    );
  return given;
}
