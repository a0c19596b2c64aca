import type { z } from "zod";
import type { ApiGeneration, CollectionName, VoiceAgentClient } from "../../client/index.js";
import type { CheckFailure } from "./check.js";
import type { AutonameDef } from "./autoname.js";
import type { PullDecl, PullDef } from "./pull.js";
import type { RequestScope } from "./scope.js";

/** Properties as Pulumi passes them: plain JSON. */
export type Props = Record<string, unknown>;

type WireKey<W> = Extract<keyof W, string>;
/** A property sent as it is: its type must fit the wire field it names. */
type SentAsIs<P, W> = {
  [K in WireKey<W>]: [NonNullable<P>] extends [NonNullable<W[K]>] ? { wire: K; toWire?: undefined } : never;
}[WireKey<W>];
/** A property converted on the way out (camelCase keys, embedded shapes). */
type SentConverted<P, W> = {
  [K in WireKey<W>]: { wire: K; toWire: (value: NonNullable<P>) => NonNullable<W[K]> };
}[WireKey<W>];
/** What a live value may be: an enum property reads back as any string (a newer server may add values, which must show as drift, not vanish). */
type Widen<P> = P extends string
  ? string
  : P extends readonly (infer E)[]
    ? Widen<E>[]
    : P extends Record<string, unknown>
      ? { [K in keyof P]: Widen<P[K]> }
      : P;
/** A property the service never sees: an adoption id, a rule checked before anything is sent. */
type NotSent = { wire: null; toWire?: undefined };

/**
 * How a change of a property applies (the question `change` answers):
 * - `in-place` (the default): an update sends the new value;
 * - `replaces`: the service cannot change it in place, so a change replaces the resource;
 * - `inert`: kept only so older programs still type-check and pass: never sent, read back or compared.
 */
export type Change = "in-place" | "replaces" | "inert";

/**
 * What leaving a property unset means (the question `unset` answers):
 * - `no-value` (the default): nothing is sent, and a value the service still holds is a difference;
 * - `clear`: an update sends `null` for it, so the service forgets what the program no longer says;
 * - `service-decides`: the service decides, and whatever it holds is no difference;
 * - `service-assigns`: the same, and the service always assigns one (a bought number), so its
 *   output is never undefined.
 */
export type Unset = "no-value" | "clear" | "service-decides" | "service-assigns";

/**
 * How a property's values compare (the question `compare` answers): `value` (the default) as they
 * are; `set` as an unordered list, the program's order kept when the set is equal (lists only);
 * `{ live }` with what the service holds rather than the recorded output, when that output is only
 * an echo of what was asked (an adoption id, a bought number's area code): a value the program
 * sets is compared with `live(recorded, id)` (`id` is the object's), so naming what is already
 * there is no change.
 */
export type Compare<P, I> =
  | "value"
  | (NonNullable<P> extends readonly unknown[] ? "set" : never)
  | { live: (recorded: Partial<I>, id: string) => Widen<P> | undefined };

/** What every field says for people: the one source of its JSDoc and its schema description. */
interface Described {
  /**
   * What the property means to a user, in plain text (Markdown backticks allowed): the one source
   * of its JSDoc on the public Args and outputs, and of its description in the package schema.
   */
  doc: string;
  /** Why the property is deprecated and what to use instead (JSDoc `@deprecated`, the schema's deprecationMessage). */
  deprecated?: string;
  /**
   * The API generation the property needs, when an older one lacks it: set while the service speaks
   * an older one, it is refused at preview, naming it (kit/since.ts). Unset: every generation has it.
   */
  since?: ApiGeneration;
  /**
   * One resource only may hold its value in a program (a number bound twice would be bound twice):
   * a second is refused at check, naming both (coordination/bound-once.ts). Resources of kinds whose
   * bound-once property has the same name hold one thing of the service (a number) together.
   */
  boundOnce?: true;
  /**
   * The collection whose objects it names by id (an agent's voice, its actions): `voiceagent pull`
   * declares it as a reference to the pulled object, not as the id (kit/pulled.ts).
   */
  refersTo?: CollectionName;
}

/**
 * What the service may say back for a property (the question `answer` answers):
 * - `echo` (the default): the value it holds, in its own form where the field says how (`compare`:
 *   a set in any order); a null member of an object or list is one left unset (a service answers an
 *   optional field the request left out as null);
 * - `write-only`: the value sent, masked (`****abcd`) or nothing at all, as a hosted API answers a
 *   credential; every `secret` field's answer, derived. Such a property is never read back: it
 *   reads as the value sent (the recorded input), its listed value never decides which object a
 *   lost create made (the client leaves the collection's secrets out of the match, and creates that
 *   differ only in them are identical bodies), and drift compares the program with the value sent,
 *   so a value changed outside Pulumi is not seen (its doc says so).
 */
export type Answer = "echo" | "write-only";

/** How a property reads back: from the live object, or (write-only) as the value sent. */
type ReadBack<P, R, I> =
  | {
      /** The live value, from the service's object; `recorded` are the inputs it was made with. */
      read: (live: R, recorded: Partial<I>) => Widen<P> | undefined;
      compare?: Compare<P, I>;
      answer?: "echo";
      secret?: undefined;
    }
  | {
      read?: undefined;
      compare?: "value";
      /**
       * A credential (a vendor's API key): secret as an input and an output in the package schema, so
       * every SDK wraps it and the state encrypts it; never shown in a failure, a note or a log. Its
       * answer is `write-only`.
       */
      secret: true;
      answer?: "write-only";
      /** What an import takes from the service's answer, where nothing was sent yet (write-only). */
      imported?: (live: R) => Widen<P> | undefined;
    }
  | {
      read?: undefined;
      compare?: "value";
      secret?: undefined;
      answer: "write-only";
      /** What an import takes from the service's answer, where nothing was sent yet (write-only). */
      imported?: (live: R) => Widen<P> | undefined;
    };

/** What a field that is sent or compared says: how it reads back and compares, and whether it is a credential. */
type Kept<P, R, I> = Described &
  ReadBack<P, R, I> &
  (NonNullable<P> extends string
    ? {
        /** With `unset`: the empty string means unset too (no opening message), never sent, never a difference. */
        emptyIsUnset?: true;
      }
    : { emptyIsUnset?: undefined });

/** A field the service never sees: read from the recorded inputs or the live object, never write-only. */
type NotSentKept<P, R, I> = Described &
  Extract<ReadBack<P, R, I>, { answer?: "echo" }> &
  (NonNullable<P> extends string ? { emptyIsUnset?: true } : { emptyIsUnset?: undefined });

/**
 * One input property of a kind, declared once, each flag answering one question: the wire field it
 * is sent as (`wire`, checked against the endpoint's body type, or `null`: never sent), how a
 * change applies (`change`), what unset means (`unset`), how it compares (`compare`), whether it
 * is a credential (`secret`), what the service may say back for it (`answer`). Combinations that
 * mean nothing do not compile: clearing a property that replaces or is never sent, a set that is not
 * a list, "" as unset for what is not a string, an inert property that is sent, read, compared or
 * secret, a write-only property that is read back, compared otherwise than by value or never sent.
 */
export type Field<P, R, W, I> =
  | ((SentAsIs<P, W> | SentConverted<P, W>) & Kept<P, R, I> & { change?: "in-place"; unset?: Unset })
  | ((SentAsIs<P, W> | SentConverted<P, W>) & Kept<P, R, I> & { change: "replaces"; unset?: Exclude<Unset, "clear"> })
  | (NotSent & NotSentKept<P, R, I> & { change?: "in-place" | "replaces"; unset?: Exclude<Unset, "clear"> })
  | (NotSent &
      Described & {
        change: "inert";
        since?: undefined;
        boundOnce?: undefined;
        refersTo?: undefined;
        read?: undefined;
        unset?: undefined;
        compare?: undefined;
        secret?: undefined;
        answer?: undefined;
        emptyIsUnset?: undefined;
      });

/** A field as the kit's walkers and the registry's readers see it, its per-property types erased. */
export interface FieldInfo {
  doc: string;
  deprecated?: string;
  since?: ApiGeneration;
  boundOnce?: true;
  refersTo?: CollectionName;
  wire: string | null;
  toWire?: ((value: never) => unknown) | undefined;
  read?: ((live: never, recorded: never) => unknown) | undefined;
  imported?: ((live: never) => unknown) | undefined;
  change?: Change;
  unset?: Unset;
  compare?: "value" | "set" | { live: (recorded: never, id: string) => unknown };
  secret?: true;
  answer?: Answer;
  emptyIsUnset?: true;
}

/** What the service may say back for a field: declared, else derived (a secret is write-only). */
export function answerOf(f: Pick<FieldInfo, "answer" | "secret">): Answer {
  return f.answer ?? (f.secret ? "write-only" : "echo");
}

/** The types an output that is not an input can have, as the package schema names them. */
export interface OutputTypes {
  string: string;
  boolean: boolean;
  integer: number;
  number: number;
}

/**
 * One output of a kind that is not an input (the owner's id, a call's status): its type and doc
 * text, and how it is read from the live object. `optional` must be said when the read may give
 * nothing (the compiler checks it), so the public type says the output may be undefined.
 */
export type OutputDef<R> = {
  [T in keyof OutputTypes]:
    | { type: T; doc: string; read: (live: R) => OutputTypes[T]; optional?: undefined; secret?: true; fixed?: true }
    | {
        type: T;
        doc: string;
        read: (live: R) => OutputTypes[T] | null | undefined;
        optional: true;
        secret?: true;
        /** No update changes it (the owner, the object's own id): an update's preview keeps the recorded value, not unknown. */
        fixed?: true;
      };
}[keyof OutputTypes];

/** Every input property of `I`, each declared once: a property without a declaration fails the build. */
export type Fields<I, R, W> = { [K in keyof I]-?: Field<I[K], R, W, I> };

/**
 * The request bodies derived from the inputs, by wire name, before the endpoint's schema parses
 * them: `create` leaves unset properties out, `update` sends null for those whose unset is `clear`.
 */
export interface Bodies {
  create: Props;
  update: Props;
}

/**
 * What the kit hands every lifecycle call of a kind: the request's scope (kit/scope.ts: its notes,
 * its host's claims) and the client of the provider's configuration.
 */
export interface LifecycleRequest {
  scope: RequestScope;
  client: VoiceAgentClient;
}

/** Create: the checked inputs, and the bodies derived from them. */
export interface LifecycleCreate<I> extends LifecycleRequest {
  inputs: I;
  bodies: Bodies;
}

/** Read: the object's id, and the inputs recorded with it (read leniently: a value stored differently is left out). */
export interface LifecycleRead<I> extends LifecycleRequest {
  id: string;
  recorded: Partial<I>;
}

/** Update: the program's inputs, the bodies derived from them, and what was recorded. */
export interface LifecycleUpdate<I> extends LifecycleRead<I> {
  inputs: I;
  bodies: Bodies;
  /** The recorded outputs as they are (a partially created object says so there). */
  olds: Props;
}

/** What a kind does against the service; the kit derives everything else from its fields. */
export interface Lifecycle<I, R> {
  /** Makes (or adopts) the object and returns it as the service holds it. */
  create(req: LifecycleCreate<I>): Promise<R>;
  /** The live object, or undefined when it is gone. */
  read?(req: LifecycleRead<I>): Promise<R | undefined>;
  /**
   * Applies the program's values in place and returns the object as the service holds it, or
   * undefined when there was nothing to send (only properties the service never sees changed):
   * the recorded outputs then stand, with those properties taken from the program.
   */
  update?(req: LifecycleUpdate<I>): Promise<R | undefined>;
  /** What destroy does; without it, destroy forgets the object and says `forgetNote`. */
  delete?(req: LifecycleRead<I>): Promise<void>;
}

/**
 * How `voiceagent recover` settles a create of a kind that an interrupted run left pending.
 * sent-body: adopt the object its adopt input names, or the one object of its collection that
 * matches the body the create sent (and no stack manages); rebind: the create only binds, and
 * binding twice is harmless, so it is cleared for the next `up` to redo; number: a number the
 * account owns, adopted by its `number` input, else never guessed (numbers bought since the
 * snapshot are offered); adopt-only: adopt the object its adopt input names, else never guessed
 * (a create that sends a secret: the recorded body holds it encrypted, and the service may not
 * echo it, so no listed object can be shown to match; the account's unmanaged ones are offered).
 */
export type RecoverMatch = "sent-body" | "rebind" | "number" | "adopt-only";

/** One resource kind, declared once. */
export interface KindDef<S extends z.ZodRawShape, R extends { id: string }, W, K extends string = string>
  extends Lifecycle<z.output<z.ZodObject<S>>, R> {
  /** The Pulumi type name, e.g. "Agent" (its tokens on each provider: identity.ts). */
  kind: K;
  /** The collection of the service its objects are in (`voiceagent pull`, `audit` and `drift` list the account's). */
  collection: CollectionName;
  /** How `voiceagent pull` declares the objects of its collection as this kind (one kind per collection has it). */
  pull?: PullDecl<R>;
  /** How `voiceagent recover` settles an interrupted create of this kind; unset: "sent-body". */
  recover?: RecoverMatch;
  /** What the resource is and does, for users: the class's JSDoc and the schema's description. */
  doc: string;
  /**
   * What `pulumi import` names an existing object by ("its id, a UUID"), for the schema's Import
   * section; unset: it cannot be imported (the service cannot read it back), and the section says
   * to adopt it instead.
   */
  importId?: string;
  /** The input schema: each property's validation, defaults and messages. */
  input: z.ZodObject<S>;
  fields: Fields<z.output<z.ZodObject<S>>, R, W>;
  /** The input that adopts an existing object instead of making one (agentId...), for advice in errors. */
  adopt?: Extract<keyof z.output<z.ZodObject<S>>, string>;
  /**
   * Outputs that are not inputs (the owner's id, a call's status), read from the live object. A
   * `secret` one is personal data: encrypted in the state, shown as [secret].
   */
  outputs: Record<string, OutputDef<R>>;
  /** Reading one back needs its collection's extension routes; without them refresh keeps the state. */
  extensionReads?: true;
  /**
   * Cross-property rules, given the properties known at preview (unknowns are left out) and the
   * names of every property the program sets, known or not (a rule of "exactly one of" needs both).
   */
  refine?: (inputs: Partial<z.output<z.ZodObject<S>>>, given: ReadonlySet<string>) => CheckFailure[];
  /**
   * What the API generation in use cannot do with these inputs, said at preview (check) rather
   * than failing later: failures stop the preview, a note is told once per process.
   */
  generationCheck?: (
    gen: ApiGeneration,
    olds: Partial<z.output<z.ZodObject<S>>>,
    news: Partial<z.output<z.ZodObject<S>>>,
  ) => { failures?: CheckFailure[]; note?: string };
  /**
   * The input that holds the display name the service shows, which autonaming fills in when the
   * program leaves it unset (kit/autoname.ts), and the generations that have it.
   */
  autoname?: AutonameDef & { property: Extract<keyof z.output<z.ZodObject<S>>, string> };
  /** Told about each resource the program declares (check runs for every one, before any delete). */
  declared?: (req: { scope: RequestScope; inputs: Partial<z.output<z.ZodObject<S>>> }) => void;
  /** Properties whose change replaces with the old object deleted first. */
  deleteBeforeReplace?: boolean;
  /** Said when destroy only forgets the object. */
  forgetNote?: string;
  /**
   * Whether an item of the collection's list is the object a create that sent `body` made, when a
   * later run settles a create whose outcome was unknown (kit/unsettled.ts). Unset: the item holds
   * every field sent (`matchesSent`). What may change after the create (a call's status) never counts.
   */
  unsettledMatch?: (item: unknown, body: unknown) => boolean;
}

/**
 * A kind's declaration as the registry's readers see it (the schema and class generators, the
 * CLI): what it says about each property, with the per-property types erased.
 */
export interface KindInfo {
  kind: string;
  doc: string;
  importId?: string;
  collection: CollectionName;
  pull?: PullDef<unknown>;
  recover?: RecoverMatch;
  extensionReads?: true;
  input: z.ZodObject;
  fields: Record<
    string,
    Pick<
      FieldInfo,
      "doc" | "deprecated" | "change" | "unset" | "secret" | "answer" | "since" | "boundOnce" | "refersTo"
    >
  >;
  outputs: Record<string, { type: keyof OutputTypes; doc: string; optional?: true; secret?: true }>;
  adopt?: string;
  deleteBeforeReplace?: boolean;
}

/**
 * Declares a kind: `defineKind<Live, WireBody>()({...})`. The types tie it together: `fields` must
 * declare every property of `input`, with a wire name that exists in `WireBody` and a value that
 * fits it, and a way to read it back from `Live`. From that one declaration the kit derives the
 * request bodies, the outputs, the inputs a refresh records, the diff, and the property names used
 * in the service's error messages.
 */
export function defineKind<R extends { id: string }, W>() {
  return <S extends z.ZodRawShape, K extends string>(def: KindDef<S, R, W, K>): KindDef<S, R, W, K> => def;
}
