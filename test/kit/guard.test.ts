import { describe, expect, it, vi } from "vitest";
import { Host } from "../../provider/host.js";
import { configProblems } from "../../provider/resources/kit/guard.js";

/** The guard of a program of its own (a host of its own: the config is checked once per host). */
async function freshGuard() {
  const host = new Host();
  return () => {
    const problems = configProblems(host);
    if (problems.length) throw new Error(problems.join("\n"));
  };
}

describe("the token must be a secret in config", () => {
  it("refuses a plain-text voiceagent:token", async () => {
    vi.stubEnv("PULUMI_CONFIG", JSON.stringify({ "voiceagent:token": "plain" }));
    vi.stubEnv("PULUMI_CONFIG_SECRET_KEYS", "[]");
    const guard = await freshGuard();
    expect(() => guard()).toThrow(/set as plain text.*pulumi config set --secret voiceagent:token/);
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
  it("refuses a voiceagent: key that is not a setting (a misspelt one would be ignored), naming it and the fix", async () => {
    vi.stubEnv(
      "PULUMI_CONFIG",
      JSON.stringify({ "voiceagent:baseURL": "http://127.0.0.1:9", "voiceagent:version": "1.0.0", "other:x": "y" }),
    );
    vi.stubEnv("PULUMI_CONFIG_SECRET_KEYS", "[]");
    const guard = await freshGuard();
    expect(() => guard()).toThrow(
      /^voiceagent:baseURL is not a setting of this provider \(it has baseUrl, token.*\): run `pulumi config rm voiceagent:baseURL`$/,
    );
    vi.unstubAllEnvs();
  });
});
