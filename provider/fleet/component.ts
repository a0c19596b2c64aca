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
import { loadCheck } from "./load-check.js";
import type { FleetArgs, FleetSpec, FleetVoice } from "./spec.js";

type Ctor<A, R = pulumi.CustomResource> = new (name: string, args: A, opts?: pulumi.CustomResourceOptions) => R;

/** A voice entry's Voice arguments but its id, names and credentials (set apart: always secret). */
function voiceFields(v: FleetVoice) {
  const { id: _id, was: _was, apiKey: _apiKey, apiUserId: _apiUserId, ...fields } = v;
  return fields;
}

/** Each field of `fields` as a secret: a fleet whose value was secret has every value secret. */
function secretEach<T extends object>(fields: T): { [K in keyof T]: pulumi.Output<Exclude<T[K], undefined>> } {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, pulumi.secret(v)])) as {
    [K in keyof T]: pulumi.Output<Exclude<T[K], undefined>>;
  };
}

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

/** The component's type token; the same on both entries, so moving between them keeps its URN. */
export const FLEET_TYPE = "voiceagent:fleet:Fleet";

/**
 * What both entries' `Fleet` do; each entry's class passes its own resource classes.
 */
export abstract class FleetBase extends pulumi.ComponentResource {
  /** The ids of what the fleet manages, by section and key. */
  readonly ids: pulumi.Output<FleetIds>;
  /** The resources, by section and key (for a program that adds to the fleet, e.g. a Call). */
  readonly resources: Record<keyof FleetSpec, Record<string, pulumi.CustomResource>>;

  protected constructor(classes: FleetClasses, name: string, args: FleetArgs, opts?: pulumi.ComponentResourceOptions) {
    // Checked before the component registers: a bad fleet sends nothing, and every problem is listed.
    const fleet = loadCheck().parseFleet(args.fleet, args.source ?? "fleet");
    super(FLEET_TYPE, name, {}, opts);
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

    const voices = each(
      fleet.voices,
      (k, v) =>
        new classes.Voice(
          `${name}-${k}`,
          {
            // Every field the entry sets, as the Voice takes it; the vendor's credentials always secret.
            ...(on ? secretEach(voiceFields(v)) : voiceFields(v)),
            apiKey: v.apiKey === undefined ? undefined : pulumi.secret(v.apiKey),
            apiUserId: v.apiUserId === undefined ? undefined : pulumi.secret(v.apiUserId),
            voiceId: opt(v.id),
          },
          child(v.was),
        ),
    );
    const actions = each(
      fleet.actions,
      (k, a) =>
        new classes.Action(
          `${name}-${k}`,
          {
            type: a.type && (on ? pulumi.secret(a.type) : a.type),
            config: a.config && (on ? pulumi.secret(a.config) : a.config),
            actionId: opt(a.id),
          },
          child(a.was),
        ),
    );
    const webhooks = each(
      fleet.webhooks,
      (k, w) =>
        new classes.Webhook(
          `${name}-${k}`,
          {
            url: str(w.url),
            method: w.method && (on ? pulumi.secret(w.method) : w.method),
            subscriptions: on ? pulumi.secret(w.subscriptions) : w.subscriptions,
            webhookId: opt(w.id),
          },
          child(w.was),
        ),
    );
    // A reference is a key of the fleet (that resource's id) or an existing object's UUID.
    const ref = (declared: Record<string, pulumi.CustomResource>, value: string): pulumi.Input<string> =>
      declared[value]?.id ?? (UUID.test(value) ? str(value) : value);
    const optRef = (declared: Record<string, pulumi.CustomResource>, value: string | undefined) =>
      value === undefined ? undefined : ref(declared, value);
    // Credentials are secret whatever the fleet's value was (each kind marks them secret too).
    const secretStr = (v: string | undefined) => (v === undefined ? undefined : pulumi.secret(v));
    const prompts = each(
      fleet.prompts,
      (k, p) =>
        new classes.Prompt(
          `${name}-${k}`,
          {
            content: opt(p.content),
            collectFields:
              p.collectFields === undefined ? undefined : on ? pulumi.secret(p.collectFields) : p.collectFields,
            contextEndpoint: opt(p.contextEndpoint),
            promptTemplate: opt(p.promptTemplate),
            promptId: opt(p.id),
          },
          child(p.was),
        ),
    );
    const vectorDatabases = each(
      fleet.vectorDatabases,
      (k, v) =>
        new classes.VectorDatabase(
          `${name}-${k}`,
          {
            type: v.type === undefined ? undefined : on ? pulumi.secret(v.type) : v.type,
            index: str(v.index),
            // Required by the VectorDatabase: left out of the stack file, its check names it at preview.
            apiKey: secretStr(v.apiKey) ?? "",
            apiEnvironment: str(v.apiEnvironment),
            vectorDatabaseId: opt(v.id),
          },
          child(v.was),
        ),
    );
    const accountConnections = each(
      fleet.accountConnections,
      (k, c) =>
        new classes.AccountConnection(
          `${name}-${k}`,
          {
            type: on ? pulumi.secret(c.type) : c.type,
            openaiApiKey: secretStr(c.openaiApiKey),
            twilioAccountSid: opt(c.twilioAccountSid),
            twilioAuthToken: secretStr(c.twilioAuthToken),
            steeringPool:
              c.steeringPool === undefined ? undefined : on ? pulumi.secret(c.steeringPool) : c.steeringPool,
            accountSupportsAnyCallerId:
              c.accountSupportsAnyCallerId === undefined
                ? undefined
                : on
                  ? pulumi.secret(c.accountSupportsAnyCallerId)
                  : c.accountSupportsAnyCallerId,
            accountConnectionId: opt(c.id),
          },
          child(c.was),
        ),
    );
    const agents = each(
      fleet.agents,
      (k, a) =>
        new classes.Agent(
          `${name}-${k}`,
          {
            prompt: opt(a.prompt),
            voice: ref(voices, a.voice),
            initialMessage: opt(a.initialMessage),
            actions: a.actions?.map((x) => ref(actions, x)),
            webhook: a.webhook === undefined ? undefined : ref(webhooks, a.webhook),
            agentId: opt(a.id),
            promptId: optRef(prompts, a.promptId),
            name: opt(a.name),
            language: a.language === undefined ? undefined : on ? pulumi.secret(a.language) : a.language,
            interruptSensitivity:
              a.interruptSensitivity === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.interruptSensitivity)
                  : a.interruptSensitivity,
            endpointingSensitivity:
              a.endpointingSensitivity === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.endpointingSensitivity)
                  : a.endpointingSensitivity,
            ivrNavigationMode:
              a.ivrNavigationMode === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.ivrNavigationMode)
                  : a.ivrNavigationMode,
            conversationSpeed:
              a.conversationSpeed === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.conversationSpeed)
                  : a.conversationSpeed,
            initialMessageDelay:
              a.initialMessageDelay === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.initialMessageDelay)
                  : a.initialMessageDelay,
            idleTimeSeconds:
              a.idleTimeSeconds === undefined ? undefined : on ? pulumi.secret(a.idleTimeSeconds) : a.idleTimeSeconds,
            askIfHumanPresentOnIdle:
              a.askIfHumanPresentOnIdle === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.askIfHumanPresentOnIdle)
                  : a.askIfHumanPresentOnIdle,
            noiseSuppression:
              a.noiseSuppression === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.noiseSuppression)
                  : a.noiseSuppression,
            runDoNotCallDetection:
              a.runDoNotCallDetection === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.runDoNotCallDetection)
                  : a.runDoNotCallDetection,
            contextEndpoint: opt(a.contextEndpoint),
            llmTemperature:
              a.llmTemperature === undefined ? undefined : on ? pulumi.secret(a.llmTemperature) : a.llmTemperature,
            openaiModelNameOverride: opt(a.openaiModelNameOverride),
            llmFallback: a.llmFallback === undefined ? undefined : on ? pulumi.secret(a.llmFallback) : a.llmFallback,
            deepgramKeywords:
              a.deepgramKeywords === undefined
                ? undefined
                : on
                  ? pulumi.secret(a.deepgramKeywords)
                  : a.deepgramKeywords,
            vectorDatabase: optRef(vectorDatabases, a.vectorDatabase),
            openaiAccountConnection: optRef(accountConnections, a.openaiAccountConnection),
          },
          child(a.was),
        ),
    );
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
