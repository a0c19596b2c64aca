// The CLI's registries (pull, audit, drift, recover) read the kinds' registry: a kind added there
// is known to them with no line of their own, on the dynamic classes' type tokens and the native
// provider's alike.
import { describe, expect, it } from "vitest";
import { adoptInputOf, kindOfType, RESOURCE_KINDS } from "../../provider/cli/kinds.js";
import { parseStackExport } from "../../provider/cli/state.js";
import { KINDS } from "../../provider/resources/kinds/index.js";

describe("the CLI's registries", () => {
  it("know every kind of the registry, with the account collection and adoption input it declares", () => {
    expect(Object.keys(RESOURCE_KINDS)).toEqual(KINDS.map((k) => k.kind));
    expect(RESOURCE_KINDS.Call).toBeUndefined();
    expect(RESOURCE_KINDS.PurchasedNumber).toBe("numbers");
    expect(KINDS.map((k) => [k.kind, adoptInputOf(k.kind)])).toEqual(KINDS.map((k) => [k.kind, k.info.adopt]));
    expect(adoptInputOf("Voice")).toBe("voiceId");
  });

  it("read the kind of a resource from either type token, and nothing else", () => {
    expect(kindOfType("voiceagent:index:Agent")).toBe("Agent");
    expect(kindOfType("pulumi-nodejs:dynamic/voiceagent:Agent")).toBe("Agent");
    expect(kindOfType("voiceagent:index:toString")).toBeUndefined();
    expect(kindOfType("pulumi:providers:voiceagent")).toBeUndefined();
  });

  it("parse a native stack's export for audit and drift", () => {
    const urn = "urn:pulumi:prod::desk::voiceagent:index:Agent::support";
    const text = JSON.stringify({
      version: 3,
      deployment: {
        manifest: {},
        resources: [
          { urn, type: "voiceagent:index:Agent", id: "agent-1" },
          { urn: "urn:pulumi:prod::desk::pulumi:providers:voiceagent::default", type: "pulumi:providers:voiceagent", id: "p-1" },
        ],
      },
    });
    expect(parseStackExport(text, "export.json")).toEqual([{ kind: "Agent", collection: "agents", id: "agent-1", urn, name: "support", stack: "desk/prod" }]);
  });
});
