// The CLI's registries (pull, audit, drift, recover) read the kinds' registry: a kind added there
// is known to them with no line of their own, on the dynamic classes' type tokens and the native
// provider's alike.
import { describe, expect, it } from "vitest";
import { ADOPT_INPUTS, RESOURCE_KINDS } from "../../provider/cli/kinds.js";
import { parseStackExport } from "../../provider/cli/state.js";
import { KINDS } from "../../provider/resources/kinds/index.js";

describe("the CLI's registries", () => {
  // Stated here, as the service and the README have them, not rebuilt the way the code builds them.
  it("know every kind that lives in the account, with its collection and the input that adopts it", () => {
    expect(RESOURCE_KINDS).toEqual({
      Agent: "agents",
      Voice: "voices",
      Action: "actions",
      Webhook: "webhooks",
      PhoneNumber: "numbers",
      PurchasedNumber: "numbers",
      LinkedNumber: "numbers",
      Prompt: "prompts",
      VectorDatabase: "vector_databases",
      AccountConnection: "account_connections",
    });
    // A call is an event, not an object of the account: nothing to pull or audit.
    expect(RESOURCE_KINDS.Call).toBeUndefined();
    expect(ADOPT_INPUTS).toEqual({
      Agent: "agentId",
      Voice: "voiceId",
      Action: "actionId",
      Webhook: "webhookId",
      Prompt: "promptId",
      VectorDatabase: "vectorDatabaseId",
      AccountConnection: "accountConnectionId",
    });
    // Every kind the registry serves is an account object, but the call.
    expect(KINDS.map((k) => k.kind).filter((k) => RESOURCE_KINDS[k] === undefined)).toEqual(["Call"]);
  });

  it("parse a native stack's export for audit and drift (its provider is not an account object)", () => {
    const urn = "urn:pulumi:prod::desk::voiceagent:index:Agent::support";
    const text = JSON.stringify({
      version: 3,
      deployment: {
        manifest: {},
        resources: [
          { urn, type: "voiceagent:index:Agent", id: "agent-1" },
          {
            urn: "urn:pulumi:prod::desk::pulumi:providers:voiceagent::default",
            type: "pulumi:providers:voiceagent",
            id: "p-1",
          },
        ],
      },
    });
    expect(parseStackExport(text, "export.json")).toEqual([
      { kind: "Agent", collection: "agents", id: "agent-1", urn, name: "support", stack: "desk/prod" },
    ]);
  });
});
