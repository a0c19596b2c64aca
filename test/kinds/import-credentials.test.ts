// An import (nothing recorded) of a credential-bearing kind takes the service's echo of a write-only
// credential, so `pulumi import` records inputs its own check accepts; a masked or missing echo is
// no value (the program gives the key and the next `up` sends it once); anything recorded wins.
import { describe, expect, it } from "vitest";
import { AccountConnectionSchema } from "../../provider/schemas/index.js";
import { outputsOf } from "../../provider/resources/kit/derive.js";
import { accountConnectionKind } from "../../provider/resources/kinds/account-connection.js";

const live = (token: string | null) =>
  AccountConnectionSchema.parse({
    id: "c1",
    user_id: "u1",
    type: "account_connection_twilio",
    credentials: { twilio_account_sid: "AC123", twilio_auth_token: token },
  });

describe("a write-only credential read with nothing recorded (an import)", () => {
  it("takes the echoed value", () => {
    expect(outputsOf(accountConnectionKind, live("tok-echoed"), {}).twilioAuthToken).toBe("tok-echoed");
  });
  it("takes no masked or missing value", () => {
    expect(outputsOf(accountConnectionKind, live("****ed12"), {})).not.toHaveProperty("twilioAuthToken");
    expect(outputsOf(accountConnectionKind, live(null), {})).not.toHaveProperty("twilioAuthToken");
  });
  it("keeps what was sent once anything is recorded, whatever the echo", () => {
    const recorded = { type: "account_connection_twilio", twilioAccountSid: "AC123", twilioAuthToken: "tok-sent" };
    expect(outputsOf(accountConnectionKind, live("tok-rotated"), recorded).twilioAuthToken).toBe("tok-sent");
  });
});
