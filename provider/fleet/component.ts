// The Fleet component, once for both entries: it is given the entry's resource classes (dynamic or
// native; they share their argument types), checks the fleet before registering anything, and
// declares one resource per entry named `<fleet>-<key>`, so a key is the resource's identity: the
// same key on the next run is the same resource, and `was:` keeps it through a rename.
import * as pulumi from "@pulumi/pulumi";
import type {
  AccountConnectionArgs,
  ActionArgs,
  AgentArgs,
  LinkedNumberArgs,
  PhoneNumberArgs,
  PromptArgs,
  PurchasedNumberArgs,
  VectorDatabaseArgs,
  VoiceArgs,
  WebhookArgs,
} from "../generated/dynamic/index.js";
import { tokenOf } from "../identity.js";
import { loadCheck, loadSections } from "./load-check.js";
import type { EntrySection } from "./sections.js";
import type { FleetArgs, FleetEntry, FleetSpec } from "./spec.js";

type Ctor<A, R = pulumi.CustomResource> = new (name: string, args: A, opts?: pulumi.CustomResourceOptions) => R;
/** Any entry section's class, whatever its arguments' type. */
type EntryCtor = Ctor<never>;

/** The resource classes of one entry (`pulumi-voiceagent` or `pulumi-voiceagent/native`). */
export interface FleetClasses {
  /** The entry's Voice. */
  Voice: Ctor<VoiceArgs>;
  /** The entry's Action. */
  Action: Ctor<ActionArgs>;
  /** The entry's Webhook. */
  Webhook: Ctor<WebhookArgs>;
  /** The entry's Agent. */
  Agent: Ctor<AgentArgs>;
  /** The entry's PhoneNumber. */
  PhoneNumber: Ctor<PhoneNumberArgs>;
  /** The entry's PurchasedNumber. */
  PurchasedNumber: Ctor<PurchasedNumberArgs, pulumi.CustomResource & { readonly number: pulumi.Output<string> }>;
  /** The entry's LinkedNumber. */
  LinkedNumber: Ctor<LinkedNumberArgs>;
  /** The entry's Prompt. */
  Prompt: Ctor<PromptArgs>;
  /** The entry's VectorDatabase. */
  VectorDatabase: Ctor<VectorDatabaseArgs>;
  /** The entry's AccountConnection. */
  AccountConnection: Ctor<AccountConnectionArgs>;
}

/** The ids a Fleet made or adopted, by section and key; `numbers` are the bought lines' numbers. */
export interface FleetIds {
  /** Voice ids by key. */
  voices: Record<string, string>;
  /** Action ids by key. */
  actions: Record<string, string>;
  /** Webhook ids by key. */
  webhooks: Record<string, string>;
  /** Prompt ids by key. */
  prompts: Record<string, string>;
  /** Vector database ids by key. */
  vectorDatabases: Record<string, string>;
  /** Account connection ids by key. */
  accountConnections: Record<string, string>;
  /** Agent ids by key. */
  agents: Record<string, string>;
  /** The service's number UUID of each line, by key. */
  lines: Record<string, string>;
  /** The number each bought line got, by key. */
  numbers: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The component's type token in a program; the same on both entries, so moving between them keeps its URN. */
export const FLEET_TYPE = "voiceagent:fleet:Fleet";
/** The component's token in the package schema, which the plugin serves (plugin/construct.ts) to every language. */
export const FLEET_TOKEN = tokenOf("Fleet");

/**
 * What both entries' `Fleet` do; each entry's class passes its own resource classes.
 */
export abstract class FleetBase extends pulumi.ComponentResource {
  /** The ids of what the fleet manages, by section and key. */
  readonly ids: pulumi.Output<FleetIds>;
  /** The resources, by section and key (for a program that adds to the fleet, e.g. a Call). */
  readonly resources: Record<keyof FleetSpec, Record<string, pulumi.CustomResource>>;

  protected constructor(
    classes: FleetClasses,
    name: string,
    args: FleetArgs,
    opts?: pulumi.ComponentResourceOptions,
    type = FLEET_TYPE,
  ) {
    // Checked before the component registers: a bad fleet sends nothing, and every problem is listed.
    const fleet = loadCheck().parseFleet(args.fleet, args.source ?? "fleet");
    super(type, name, {}, opts);
    // Secret when the fleet's value was: every value the stack file wrote (ids made here are not).
    const on = args.secret === true;
    const str = (v: string): pulumi.Input<string> => (on ? pulumi.secret(v) : v);
    const opt = (v: string | undefined): pulumi.Input<string> | undefined => (v === undefined ? undefined : str(v));
    const child = (
      was: string[] | undefined,
      extra: pulumi.CustomResourceOptions = {},
    ): pulumi.CustomResourceOptions => ({
      parent: this,
      ...extra,
      ...(was?.length ? { aliases: was.map((old) => ({ name: `${name}-${old}` })) } : {}),
    });
    const each = <E, R>(section: Record<string, E> | undefined, make: (key: string, e: E) => R) =>
      Object.fromEntries(Object.entries(section ?? {}).map(([k, e]) => [k, make(k, e)]));

    // A reference is a key of the fleet (that resource's id) or an existing object's UUID.
    const ref = (declared: Record<string, pulumi.CustomResource>, value: string): pulumi.Input<string> =>
      declared[value]?.id ?? (UUID.test(value) ? str(value) : value);
    const optRef = (declared: Record<string, pulumi.CustomResource>, value: string | undefined) =>
      value === undefined ? undefined : ref(declared, value);
    // Every entry section but `lines` is one resource of one kind per entry, its arguments derived
    // from the kind's declaration (./sections.ts); declared in order, so a reference finds its entry.
    const { ENTRY_SECTIONS, entryArgs, sectionKind } = loadSections();
    const declared: Partial<Record<EntrySection, Record<string, pulumi.CustomResource>>> = {};
    const of = (s: EntrySection) => declared[s] ?? {};
    for (const section of ENTRY_SECTIONS) {
      const entries: Record<string, FleetEntry> = fleet[section] ?? {};
      const Class: EntryCtor = classes[sectionKind(section).kind];
      declared[section] = each(
        entries,
        (k, e) =>
          // The arguments are the kind's own inputs (derived from its declaration), which its check
          // validates at preview: the class's Args type cannot be named for a section picked at run time.
          new Class(
            `${name}-${k}`,
            entryArgs(section, { ...e }, on, (s, v) => ref(of(s), v), pulumi.secret) as never,
            child(e.was),
          ),
      );
    }
    const [voices, actions, webhooks, prompts, vectorDatabases, accountConnections, agents] = [
      of("voices"),
      of("actions"),
      of("webhooks"),
      of("prompts"),
      of("vectorDatabases"),
      of("accountConnections"),
      of("agents"),
    ];
    const purchases = each(
      Object.fromEntries(Object.entries(fleet.lines ?? {}).filter(([, l]) => l.buy)),
      (k, l) =>
        new classes.PurchasedNumber(
          `${name}-${k}`,
          { areaCode: opt(l.buy?.areaCode) },
          child(l.was, { protect: l.protect ?? true }),
        ),
    );
    // A linked line is a LinkedNumber, which sets its own agent: it has no PhoneNumber binding.
    const lines = each(fleet.lines, (k, l): pulumi.CustomResource => {
      if (l.link) {
        return new classes.LinkedNumber(
          `${name}-${k}`,
          {
            number: str(l.number ?? ""),
            telephonyAccountConnection: ref(accountConnections, l.link.connection),
            // None for a number that only places calls, or is linked for later (the fleet's check allows it only here).
            inboundAgent: optRef(agents, l.agent),
            outboundOnly:
              l.link.outboundOnly === undefined
                ? undefined
                : on
                  ? pulumi.secret(l.link.outboundOnly)
                  : l.link.outboundOnly,
          },
          child(l.was),
        );
      }
      return new classes.PhoneNumber(
        `${name}-${k}`,
        // The fleet's check gives every line without `link` an agent.
        { number: purchases[k]?.number ?? str(l.number ?? ""), inboundAgent: ref(agents, l.agent ?? "") },
        child(l.was),
      );
    });

    const ids = (rs: Record<string, pulumi.CustomResource>) =>
      pulumi.output(Object.fromEntries(Object.entries(rs).map(([k, r]) => [k, r.id])));
    const numbers = pulumi.output(Object.fromEntries(Object.entries(purchases).map(([k, p]) => [k, p.number])));
    const sections = { voices, actions, webhooks, prompts, vectorDatabases, accountConnections, agents, lines };
    this.resources = sections;
    const names = Object.keys(sections).filter((k): k is keyof typeof sections => k in sections);
    this.ids = pulumi
      .all([pulumi.all(names.map((k) => ids(sections[k]))), numbers])
      .apply(([bySection, n]): FleetIds => {
        const idsOf = (k: keyof typeof sections): Record<string, string> => bySection[names.indexOf(k)] ?? {};
        return {
          voices: idsOf("voices"),
          actions: idsOf("actions"),
          webhooks: idsOf("webhooks"),
          prompts: idsOf("prompts"),
          vectorDatabases: idsOf("vectorDatabases"),
          accountConnections: idsOf("accountConnections"),
          agents: idsOf("agents"),
          lines: idsOf("lines"),
          numbers: n,
        };
      });
    this.registerOutputs({ ids: this.ids });
  }
}
