// The Fleet in the package schema: `voiceagent:index:Fleet`, a component the plugin serves
// (plugin/construct.ts), so every SDK gets a class for it. Its input is the fleet's document, each
// section's entry type derived from its kind's description (every input but the adopting one, which
// an entry writes `id`, plus `was`); a line, which makes one of three kinds, is declared here.
import { tokenOf } from "../identity.js";
import { ENTRY_SECTIONS, sectionKind } from "../fleet/sections.js";
import { FLEET_SECTIONS, KNOWN_KEYS } from "../fleet/schema.js";
import type { JsonObject } from "../schemas/json.js";
import type { KindDescription } from "./describe.js";
import { typeSpec } from "./type-spec.js";

const ref = (name: string): JsonObject => ({ $ref: `#/types/${tokenOf(name)}` });
const str = (description: string): JsonObject => ({ type: "string", description });
const mapOf = (name: string, description: string): JsonObject => ({
  type: "object",
  additionalProperties: ref(name),
  description,
});

/** Every entry may adopt an object and keep former keys. */
const ENTRY_PROPERTIES: Record<string, JsonObject> = {
  id: str("Adopt this existing object (its UUID) instead of creating one: the first `up` takes it over."),
  was: {
    type: "array",
    items: { type: "string" },
    description: "Keys this entry had before a rename: the resource keeps its object (an alias).",
  },
};

/** The type name of a section's entries: `FleetVoice`, `FleetVectorDatabase`. */
const entryType = (kind: string) => `Fleet${kind}`;

/** An entry section's type: its kind's inputs as the fleet takes them; a reference is a key of the fleet or a UUID. */
function entrySpec(section: (typeof ENTRY_SECTIONS)[number], kinds: readonly KindDescription[]): JsonObject {
  const sk = sectionKind(section);
  const k = kinds.find((d) => d.kind === sk.kind);
  if (!k) throw new Error(`the fleet's ${section} are ${sk.kind}s, which no kind describes`);
  const known: readonly string[] = KNOWN_KEYS[section] ?? [];
  const props = k.properties.filter((p) => p.input && p.name !== sk.adopt && known.includes(p.name));
  const properties = Object.fromEntries(
    props.map((p) => {
      const refers = sk.refs[p.name];
      const doc = refers ? `${p.doc} In a fleet: a key of \`${refers}\`, or an existing object's UUID.` : p.doc;
      return [
        p.name,
        { ...typeSpec(p.input?.type ?? p.output.type), description: doc, ...(p.input?.secret ? { secret: true } : {}) },
      ];
    }),
  );
  const required = props.filter((p) => p.input?.required).map((p) => p.name);
  return {
    type: "object",
    description:
      `A ${sk.kind} of the fleet, named by its key (its resource is \`<fleet>-<key>\`): ` +
      `each field is the ${sk.kind} argument of the same name.`,
    properties: { ...ENTRY_PROPERTIES, ...properties },
    ...(required.length ? { required } : {}),
  };
}

/** The component resource and the types of its document. */
export function fleetSchema(kinds: readonly KindDescription[]): { resources: JsonObject; types: JsonObject } {
  const sections = Object.fromEntries(
    FLEET_SECTIONS.map((s) => {
      if (s === "lines") return [s, mapOf("FleetLine", "Lines (number bindings) by key.")];
      return [s, mapOf(entryType(sectionKind(s).kind), `The fleet's ${s} by key.`)];
    }),
  );
  const types: JsonObject = {
    ...Object.fromEntries(ENTRY_SECTIONS.map((s) => [tokenOf(entryType(sectionKind(s).kind)), entrySpec(s, kinds)])),
    [tokenOf("FleetLine")]: {
      type: "object",
      description:
        "A line: a number bound to an agent, either one the account owns (`number`), one of the team's Twilio " +
        "account to link (`number` and `link`), or one to buy (`buy`).",
      properties: {
        agent: str("A key of `agents`, or an existing agent's UUID: who answers. Required unless the line has `link`."),
        number: str(
          'A number the account owns, or with `link` one of the team\'s Twilio account, E.164 ("+15551234567").',
        ),
        link: { ...ref("FleetLink"), description: "Link `number` from the team's Twilio account (a LinkedNumber)." },
        buy: {
          ...ref("FleetPurchase"),
          description: "Buy a number for this line instead (protected unless `protect: false`).",
        },
        protect: {
          type: "boolean",
          description: "For a bought number: false lets `destroy` cancel it (default true).",
        },
        was: ENTRY_PROPERTIES.was ?? {},
      },
    },
    [tokenOf("FleetLink")]: {
      type: "object",
      description: "A number of the team's own Twilio account, linked to the service (current API only).",
      properties: {
        connection: str(
          "A key of `accountConnections`, or the UUID of the Twilio account connection that owns the number.",
        ),
        outboundOnly: { type: "boolean", description: "The number only places calls." },
      },
      required: ["connection"],
    },
    [tokenOf("FleetPurchase")]: {
      type: "object",
      description: "A number to buy for a line.",
      properties: { areaCode: str("Buy in this 3-digit area code (unset: any area).") },
    },
    [tokenOf("FleetSpec")]: {
      type: "object",
      description: "The fleet: each kind keyed by a name that becomes the resource's name.",
      properties: sections,
    },
    [tokenOf("FleetIds")]: {
      type: "object",
      description: "The ids a Fleet made or adopted, by section and key; `numbers` are the bought lines' numbers.",
      properties: Object.fromEntries(
        [...FLEET_SECTIONS, "numbers"].map((s) => [
          s,
          { type: "object", additionalProperties: { type: "string" }, description: `Ids of ${s} by key.` },
        ]),
      ),
      required: [...FLEET_SECTIONS, "numbers"],
    },
  };
  const resources: JsonObject = {
    [tokenOf("Fleet")]: {
      isComponent: true,
      description:
        "A fleet of voices, actions, webhooks, prompts, vector databases, account connections, agents and lines declared as data " +
        "(usually a stack file's `fleet` value), as resources named `<name>-<key>` under it, served by the provider's plugin. " +
        "When any value of the document is secret, every value is stored as a secret. See docs/fleet.md.",
      inputProperties: {
        fleet: { ...ref("FleetSpec"), description: "The fleet's document (a stack file's `fleet` value)." },
      },
      requiredInputs: ["fleet"],
      properties: {
        ids: { ...ref("FleetIds"), description: "The ids of what the fleet manages, by section and key." },
      },
      required: ["ids"],
    },
  };
  return { resources, types };
}
