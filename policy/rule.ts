// A resource rule of the pack, written once for a kind and served for both entries' type tokens.
// A new rule (issue 35's languages, LLM models, temperature bounds, connection types) is one file
// that calls resourceRule and one line in policies.ts.
import type {
  EnforcementLevel,
  PolicyConfigSchema,
  PolicyResourceOptions,
  ResourceValidationPolicy,
} from "@pulumi/policy";
import { describe, type Kind, kindOf } from "./resource-view.js";
import { settingsOf } from "./settings.js";

/** One resource of the rule's kind, as its check sees it. */
export interface Checked {
  /** The resource's name in the program. */
  name: string;
  /** Its properties: read them with fieldOf / knownString (resource-view.ts). */
  props: Record<string, unknown>;
  /** Its resource options (protect, ...). */
  opts: PolicyResourceOptions;
}

/** A rule on the resources of one kind. */
export interface ResourceRule<C> {
  /** The policy's name: what `--policy-pack-config` keys and every message names. */
  name: string;
  kind: Kind;
  /** One sentence: what the rule asks for (printed by the CLI above each violation). */
  description: string;
  /** The default enforcement (a team changes it in the pack's config). */
  enforcementLevel?: EnforcementLevel;
  /** The rule's settings, as JSON schema properties (the CLI checks a config file against them). */
  config?: PolicyConfigSchema["properties"];
  /**
   * The problems of one resource, each naming the field and never its value (a prompt or a key
   * may be a secret: @pulumi/policy hands rules secrets unwrapped). Empty when it complies.
   */
  check(resource: Checked, config: Partial<C>): string[];
}

/** The @pulumi/policy policy of a rule: its kind on either entry, each problem one violation. */
export function resourceRule<C extends object>(rule: ResourceRule<C>): ResourceValidationPolicy {
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel: rule.enforcementLevel,
    configSchema: rule.config ? { properties: rule.config } : undefined,
    validateResource: (args, reportViolation) => {
      if (kindOf(args.type) !== rule.kind) return;
      const config = settingsOf(rule.name, rule.config, args.getConfig<Partial<C>>());
      const problems = rule.check({ name: args.name, props: args.props, opts: args.opts }, config);
      for (const problem of problems)
        reportViolation(`${describe(rule.kind, args.name)}: ${problem} (policy ${rule.name})`);
    },
  };
}
