// Construct: the component this plugin serves, `voiceagent:index:Fleet`, so a program in any
// language (Python, Go, YAML, .NET) declares a fleet. The Fleet's own code (provider/fleet) runs
// here, in the plugin, against the engine's resource monitor, as @pulumi/pulumi's provider server
// runs a component (3.276.0 provider/server.js `construct`, whose steps these are, with the SDK's
// own functions): the runtime is pointed at the request's monitor, project, stack and config; the
// component registers itself and its children there (native resources, named `<name>-<key>` under
// it, so their URNs are a program's); the response is its URN and its outputs. Loaded on the first
// Construct: a plugin that serves only custom resources never loads the Node SDK's runtime.
import { ProviderFailure } from "./protocol.js";
import * as pulumi from "@pulumi/pulumi";
import type * as pb from "@pulumi/pulumi/proto/provider_pb.js";
import { parseFleet } from "../fleet/check.js";
import { FLEET_TOKEN, FLEET_TYPE } from "../fleet/component.js";
import { ServedFleet } from "../fleet/native.js";

/** The Node SDK's runtime functions its provider server uses that its declarations leave out (internal in 3.276.0). */
interface RuntimeInternals {
  awaitFeatureSupport(): Promise<void>;
  waitForRPCs(): Promise<void>;
}
interface StateInternals {
  withLocalStorage<T>(callback: () => Promise<T>): Promise<T>;
}
const settings: RuntimeInternals = require("@pulumi/pulumi/runtime/settings.js");
const state: StateInternals = require("@pulumi/pulumi/runtime/state.js");

/** The key that marks a special value in a Struct, and the signatures of a secret and an unknown. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** `v` with secrets unwrapped, and whether it held one; undefined where it holds a value not known yet (preview). */
function plainOf(v: unknown): { value: unknown; secret: boolean; unknown: boolean } {
  if (v === UNKNOWN) return { value: undefined, secret: false, unknown: true };
  if (Array.isArray(v)) {
    const parts = v.map(plainOf);
    return {
      value: parts.map((p) => p.value),
      secret: parts.some((p) => p.secret),
      unknown: parts.some((p) => p.unknown),
    };
  }
  if (isRecord(v)) {
    if (v[SIG_KEY] === SECRET_SIG) return { ...plainOf(v.value), secret: true };
    const parts = Object.entries(v).map(([k, x]) => [k, plainOf(x)] as const);
    return {
      value: Object.fromEntries(parts.map(([k, p]) => [k, p.value])),
      secret: parts.some(([, p]) => p.secret),
      unknown: parts.some(([, p]) => p.unknown),
    };
  }
  return { value: v, secret: false, unknown: false };
}

/** A value known at preview as at update (a URN). */
const known = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

/** What a Construct answers: the component's URN and its outputs. */
export interface Constructed {
  urn: string;
  state: Record<string, unknown>;
  dependencies: Record<string, string[]>;
}

/** The component's options as the request gives them (the same as the SDK's server rebuilds). */
function optionsOf(req: pb.ConstructRequest): pulumi.ComponentResourceOptions {
  const providers: Record<string, pulumi.ProviderResource> = {};
  for (const [pkg, ref] of req.getProvidersMap().entries()) providers[pkg] = new pulumi.DependencyProviderResource(ref);
  const aliases: pulumi.Input<pulumi.URN | pulumi.Alias>[] = [];
  for (const alias of req.getAliasesList()) {
    if (alias.hasUrn()) aliases.push(alias.getUrn());
    const spec = alias.getSpec();
    if (!spec) continue;
    aliases.push({
      ...(spec.getName() ? { name: spec.getName() } : {}),
      ...(spec.getType() ? { type: spec.getType() } : {}),
      ...(spec.getProject() ? { project: spec.getProject() } : {}),
      ...(spec.getStack() ? { stack: spec.getStack() } : {}),
      ...(spec.hasParenturn()
        ? { parent: spec.getParenturn() }
        : spec.getNoparent()
          ? { parent: pulumi.rootStackResource }
          : {}),
    });
  }
  // A Fleet a program made in-process (the TypeScript native entry, the Python overlay) had the
  // type voiceagent:fleet:Fleet: the component keeps that URN as an alias, and its children
  // inherit it, so such a stack moves to this component with nothing to change.
  aliases.push({ type: FLEET_TYPE });
  return {
    aliases,
    dependsOn: req.getDependenciesList().map((urn) => new pulumi.DependencyResource(urn)),
    protect: req.getProtect(),
    providers,
    ...(req.getParent() ? { parent: new pulumi.DependencyResource(req.getParent()) } : {}),
    ...(req.getRetainondelete() ? { retainOnDelete: true } : {}),
  };
}

/**
 * Runs one Construct of `voiceagent:index:Fleet`: the engine's address is this process's (from
 * Handshake), the rest the request's. Inputs: `fleet`, the fleet's document; when any value of it
 * is secret, every value is stored as a secret (as `fleetFromConfig` does: a config value is secret
 * or not as a whole), so a secret stays secret in every child. Outputs: `ids`.
 */
export function construct(req: pb.ConstructRequest, engineAddress: string): Promise<Constructed> {
  return state.withLocalStorage(async () => {
    if (req.getType() !== FLEET_TOKEN)
      throw new ProviderFailure(
        `${req.getType()} is not a component of this provider (it has one: ${FLEET_TOKEN}); nothing was sent to the ` +
          "service: install the plugin that matches the SDK",
        undefined,
        "E_UNKNOWN_KIND",
        false,
      );
    pulumi.runtime.resetOptions(
      req.getProject(),
      req.getStack(),
      req.getParallel(),
      engineAddress,
      req.getMonitorendpoint(),
      req.getDryrun(),
      req.getOrganization(),
    );
    await settings.awaitFeatureSupport();
    pulumi.runtime.setAllConfig(Object.fromEntries(req.getConfigMap().entries()), req.getConfigsecretkeysList());
    const inputs = plainOf(req.getInputs()?.toJavaScript()?.fleet);
    if (inputs.unknown)
      throw new ProviderFailure(
        "fleet: a value of the fleet's document is not known until another resource is made; a Fleet's " +
          "document is data (a stack file's value, literals), whose keys name its resources. Nothing was sent to " +
          "the service: give the Fleet known values",
        undefined,
        "E_FLEET_CONFIG",
        false,
      );
    const fleet = new ServedFleet(
      req.getName(),
      {
        // A problem names its path in the stack file, where a stack-file fleet is corrected.
        fleet: parseFleet(inputs.value ?? {}, "fleet", `Pulumi.${req.getStack()}.yaml`),
        secret: inputs.secret,
        source: "fleet",
      },
      optionsOf(req),
    );
    const urn = await known(fleet.urn);
    const [props, deps] = await pulumi.runtime.serializeResourceProperties(
      `construct(${FLEET_TOKEN}, ${req.getName()})`,
      {
        ids: fleet.ids,
      },
    );
    const dependencies: Record<string, string[]> = {};
    for (const [key, resources] of deps) dependencies[key] = await Promise.all([...resources].map((r) => known(r.urn)));
    await settings.waitForRPCs();
    return { urn, state: props, dependencies };
  });
}
