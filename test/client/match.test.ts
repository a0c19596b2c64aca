// What counts as "the object this create made": the fields sent, compared with what the list shows.
import { describe, expect, it } from "vitest";
import { bodyKey, matchesSent } from "../../provider/client/match.js";
import { collections } from "../../provider/schemas/index.js";

const VOICE = "0b7c1c8e-8a39-4a53-9d1e-6f1f2b0c9a11";
const liveAgent = {
  id: "5b0e3d8a-3c0f-4f7e-8f4e-2f2d9a0b1c22",
  user_id: "9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c00",
  prompt: "p",
  voice: { id: VOICE, type: "voice_base", voice_name: "v", pitch: 0, rate: 1 },
  actions: [],
  initial_message: null,
};

describe("matchesSent", () => {
  it("ignores the fields the service adds at the top level, and matches a sent id against the embedded object", () => {
    expect(matchesSent({ prompt: "p", voice: VOICE, actions: [] }, liveAgent)).toBe(true);
    expect(matchesSent({ prompt: "p", voice: "11111111-2222-4333-8444-555555555555", actions: [] }, liveAgent)).toBe(
      false,
    );
  });

  it("an empty nested config matches only an empty config, not one that holds a number", () => {
    const action = (config: Record<string, unknown>) => ({
      id: "a",
      user_id: "u",
      type: "action_transfer_call",
      config,
    });
    expect(matchesSent({ type: "action_transfer_call", config: {} }, action({}))).toBe(true);
    expect(matchesSent({ type: "action_transfer_call", config: {} }, action({ phone_number: "+15550001111" }))).toBe(
      false,
    );
    expect(
      matchesSent(
        { type: "action_transfer_call", config: { phone_number: "+15550001111" } },
        action({ phone_number: "+15550001111" }),
      ),
    ).toBe(true);
    // A key the service reports as null was not set: still the same config.
    expect(matchesSent({ type: "action_transfer_call", config: {} }, action({ phone_number: null }))).toBe(true);
  });

  it("lists compare as multisets, whatever the order the service returns", () => {
    expect(
      matchesSent(
        { subscriptions: ["event_message", "event_action"] },
        { subscriptions: ["event_action", "event_message"] },
      ),
    ).toBe(true);
    expect(
      matchesSent(
        { subscriptions: ["event_message", "event_message"] },
        { subscriptions: ["event_message", "event_action"] },
      ),
    ).toBe(false);
  });

  it("a credential the service masks or leaves out never decides (the collection table's secrets)", () => {
    const sent = {
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: "AC1", twilio_auth_token: "tw-1234" },
    };
    const answered = (credentials: Record<string, unknown>) => ({
      id: "c1",
      user_id: "u",
      type: sent.type,
      credentials,
    });
    const secrets = collections.account_connections.secrets;
    for (const live of [
      answered({ twilio_account_sid: "AC1", twilio_auth_token: "****1234" }),
      answered({ twilio_account_sid: "AC1" }),
    ]) {
      expect(matchesSent(sent, live)).toBe(false);
      expect(matchesSent(sent, live, secrets)).toBe(true);
    }
    // What is echoed still decides.
    expect(matchesSent(sent, answered({ twilio_account_sid: "AC2" }), secrets)).toBe(false);
    // Bodies equal but for a credential are identical bodies.
    const other = { ...sent, credentials: { ...sent.credentials, twilio_auth_token: "tw-other" } };
    expect(bodyKey(sent, secrets)).toBe(bodyKey(other, secrets));
    expect(bodyKey(sent)).not.toBe(bodyKey(other));
  });

  it("a list element's null members count as absent (an optional field left out, answered as null)", () => {
    const sent = { content: "c", collect_fields: [{ field_type: "field_type_email", label: "E", name: "email" }] };
    const live = {
      id: "p1",
      content: "c",
      collect_fields: [{ field_type: "field_type_email", label: "E", name: "email", description: null }],
    };
    expect(matchesSent(sent, live)).toBe(true);
    expect(matchesSent(sent, { ...live, collect_fields: [{ ...live.collect_fields[0], description: "set" }] })).toBe(
      false,
    );
  });
});
