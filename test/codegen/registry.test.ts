// The CLI's registries (pull, audit, drift, recover) read the kinds' registry: a kind added there
// is known to them with no line of their own, on the dynamic classes' type tokens and the native
// provider's alike.
import { describe, expect, it } from "vitest";
import { ADOPT_INPUTS, RESOURCE_KINDS } from "../../provider/cli/kinds.js";
import { parseStackExport } from "../../provider/cli/state.js";
import { KINDS } from "../../provider/resources/kinds/index.js";

describe("the CLI's registries", () => {
  it("know every kind of the registry, with the account collection and adoption input it declares", () => {
    expect(Object.keys(RESOURCE_KINDS)).toEqual(KINDS.map((k) => k.kind));
    expect(RESOURCE_KINDS.Call).toBeUndefined();
    expect(RESOURCE_KINDS.PurchasedNumber).toBe("numbers");
    expect(KINDS.map((k) => [k.kind, ADOPT_INPUTS[k.kind]])).toEqual(KINDS.map((k) => [k.kind, k.info.adopt]));
    expect(ADOPT_INPUTS.Voice).toBe("voiceId");
    expect(ADOPT_INPUTS.PhoneNumber).toBeUndefined();
  });

  it("parse a native stack's export for audit and drift (its provider is not an account object)", () => {
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
