import { describe, expect, it, vi } from "vitest";

async function freshGuard() {
  vi.resetModules();
  return (await import("../../provider/resources/kit/guard.js")).assertTokenIsSecret;
}

describe("the token must be a secret in config", () => {
  it("refuses a plain-text voiceagent:token", async () => {
    vi.stubEnv("PULUMI_CONFIG", JSON.stringify({ "voiceagent:token": "plain" }));
    vi.stubEnv("PULUMI_CONFIG_SECRET_KEYS", "[]");
    const guard = await freshGuard();
    expect(() => guard()).toThrow(/set as plain text.*pulumi config set --secret voiceagent:token/);
    const refused = await freshGuard().then((g) => {
      try {
        g();
      } catch (err) {
        return err;
      }
    });
    expect(refused).toMatchObject({ code: "E_PLAIN_TOKEN" });
    vi.unstubAllEnvs();
  });
  it("accepts a secret token, or none", async () => {
    vi.stubEnv("PULUMI_CONFIG", JSON.stringify({ "voiceagent:token": "[secret]" }));
    vi.stubEnv("PULUMI_CONFIG_SECRET_KEYS", JSON.stringify(["voiceagent:token"]));
    expect(await freshGuard()).not.toThrow();
    vi.stubEnv("PULUMI_CONFIG", "{}");
    expect(await freshGuard()).not.toThrow();
    vi.unstubAllEnvs();
  });
});
