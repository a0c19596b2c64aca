import type { ApiGeneration } from "../../client/index.js";
import { inputFailure, type CheckFailure } from "./failure.js";

// Autonaming: the display name a kind's object gets when the program leaves it unset. The engine
// decides it from the stack's `pulumi:autonaming` config and sends it with Check (pulumi v3.259.0
// to v3.274.1: pkg/resource/deploy/step_generator.go `generateSteps`, in v3.274.1 through its
// continuation `continueStepsFromImport`, → pkg/resource/autonaming/strategy.go
// `AutonamingForResource`: nothing without the config, `disable` for mode "disabled", `enforce`
// with the logical name for "verbatim", `propose` or `enforce` with the pattern's name), and only
// to a provider whose Handshake or Configure said supportsAutonamingConfiguration
// (sdk/go/common/resource/plugin/provider_plugin.go `Check`). The dynamic entry's provider host
// answers no Handshake, so its check gets the logical name alone (dynamic/adapter.ts) and the default
// applies there.

/**
 * The key under which a dynamic-entry resource hands its logical name to its check (dynamic/base.ts):
 * a dynamic provider's check is told neither the URN nor the name. Check removes it (dynamic/adapter.ts),
 * so it is never recorded.
 */
export const LOGICAL_NAME_KEY = "__logicalName";

/** The program's inputs without the logical name a dynamic-entry resource hands its check, and that name. */
export function logicalNameOf(props: Record<string, unknown>): {
  props: Record<string, unknown>;
  logicalName: string | undefined;
} {
  const { [LOGICAL_NAME_KEY]: name, ...rest } = props;
  return { props: rest, logicalName: typeof name === "string" ? name : undefined };
}

/** How the engine asks a name to be made (CheckRequest.AutonamingOptions.Mode). */
export type AutonamingMode = "propose" | "enforce" | "disable";

/** What a check knows of the resource's name: its logical name, and what the engine asked, if anything. */
export interface Autonaming {
  /** The resource's logical name (the URN's last part): the default display name. */
  logicalName: string;
  /** What the engine asked; unset when it sent nothing (no `pulumi:autonaming`): the default applies. */
  mode?: AutonamingMode;
  /** The engine's name (a pattern's, or the logical name for "verbatim"); empty with `disable`. */
  proposedName?: string;
}

/** A kind's display name, declared once on the kind (kit/kind.ts `autoname`). */
export interface AutonameDef {
  /** The input that holds it (an agent's `name`). */
  property: string;
  /** Whether the API generation in use has it; unset: every generation does. */
  has?: (gen: ApiGeneration) => boolean;
}

/** What autonaming decided: a name to add to the inputs, a failure, or nothing to add. */
export type Autonamed = { property: string; name: string } | { failure: CheckFailure } | undefined;

/**
 * The name to add to a check's new inputs, when the program sets none. An explicit name (known or
 * not) always wins; an adopted object (its adopt input set) keeps its own name. A resource that
 * exists already (the engine sends its recorded inputs as `olds`, on every update, replacement
 * and refresh --run-program) keeps the name it was created with, or none if it had none: a
 * pattern's random part is drawn anew in each deployment (the engine's seed), and a stack made
 * before autonaming must not be renamed by an upgrade. A new one gets what the engine asked
 * (`disable`: none), else the logical name verbatim. `gen` is the API generation in use, when
 * known; a generation without the property gets no name (`enforce` fails there: the engine's
 * name cannot be used, and enforce means use it or fail).
 */
export function autonamed(
  def: AutonameDef,
  req: {
    olds: Record<string, unknown>;
    news: Record<string, unknown>;
    autonaming: Autonaming | undefined;
    adopted: boolean;
  },
  gen: ApiGeneration | undefined,
): Autonamed {
  const { olds, news, autonaming } = req;
  if (news[def.property] !== undefined && news[def.property] !== null) return undefined;
  if (Object.keys(olds).length > 0) {
    const kept = olds[def.property];
    return typeof kept === "string" ? { property: def.property, name: kept } : undefined;
  }
  if (!autonaming || req.adopted || autonaming.mode === "disable") return undefined;
  const lacks = gen !== undefined && def.has !== undefined && !def.has(gen);
  if (lacks) {
    if (autonaming.mode !== "enforce") return undefined;
    return {
      failure: inputFailure(
        `${def.property}: pulumi:autonaming enforces the name "${autonaming.proposedName ?? ""}", and the service ` +
          `speaks the 2023 interface, which has no ${def.property}: nothing was sent. Remove the enforce setting for ` +
          "this type, or set voiceagent:api 2024 if the service speaks the current API",
      ),
    };
  }
  return {
    property: def.property,
    name: autonaming.mode === undefined ? autonaming.logicalName : (autonaming.proposedName ?? ""),
  };
}
