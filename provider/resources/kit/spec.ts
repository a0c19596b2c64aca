import type { z } from "zod";
import type { VoiceAgentClient } from "../../client/index.js";
import type { CheckFailure } from "./check.js";
import type { DiffRules } from "./diff.js";
import type { FieldMap } from "./errors.js";

/** Properties as Pulumi passes them: plain JSON. */
export type Props = Record<string, unknown>;

/** What a read found: the live outputs and the inputs they imply (so refresh shows drift). */
export interface ReadFound {
  props: Props;
  inputs: Props;
}

/**
 * One resource kind's behaviour against the service. The runtime adds what every kind does
 * alike: credentials, check from `shape`, diff from `diff`, error wording, gone/route-missing.
 */
export interface ResourceSpec {
  kind: string;
  /** Input schemas by camelCase property name. */
  shape: z.ZodRawShape;
  /** Cross-field checks, run once each field is valid. */
  refine?: (inputs: Props) => CheckFailure[];
  diff: DiffRules;
  /** Wire field name → property name, for naming properties in the service's 422s. */
  fields?: FieldMap;
  create(client: VoiceAgentClient, inputs: Props): Promise<{ id: string; outs: Props }>;
  /** The live object, or undefined when it is gone. Omit for kinds the server cannot read. */
  read?(client: VoiceAgentClient, id: string, props: Props): Promise<ReadFound | undefined>;
  update(client: VoiceAgentClient, id: string, olds: Props, news: Props): Promise<Props>;
  /** What destroy does. Forgetting (no call) is the default for kinds the service cannot delete. */
  delete?(client: VoiceAgentClient, id: string, props: Props): Promise<void>;
  /** Told when diff decides on a replacement (runs in the provider process that will delete). */
  onReplace?(olds: Props): void;
  /** Said on stderr when destroy only forgets. */
  forgetNote?: string;
}

/** Drops undefined values: Pulumi's struct encoding has no undefined. */
export function compact(o: Props): Props {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** A read's result: the live outputs, and as inputs the same minus the output-only fields. */
export function found(props: Props, outputOnly: readonly string[]): ReadFound {
  return { props, inputs: Object.fromEntries(Object.entries(props).filter(([k]) => !outputOnly.includes(k))) };
}
