// One number, one PhoneNumber: a second resource binding it is refused at check, naming both,
// never the number; the same resource checked again (a migration) is no conflict.
import { afterEach, describe, expect, it } from "vitest";
import { Host } from "../../provider/host.js";
import { KINDS } from "../../provider/resources/kinds/index.js";

// The API generation set: no check asks the service which one it speaks.
const settings = {
  baseUrl: "http://127.0.0.1:9",
  token: "t0ken-value",
  config: { get: (k: string) => (k === "voiceagent:api" ? "2023" : undefined) },
};
const agent = "11111111-1111-4111-8111-111111111111";
const urn = (name: string) => `urn:pulumi:dev::p::voiceagent:index:PhoneNumber::${name}`;
// The kit's runtime, as the native plugin calls it (with the URN of the resource it checks).
const runtime = KINDS.find((k) => k.kind === "PhoneNumber")!.runtime;
// Each test is its own program: a host of its own (what a plugin process builds at its main).
let host = new Host();
const check = (name: string | undefined, number: string) =>
  host.run(() =>
    runtime.check({ host, settings, olds: {}, news: { number, inboundAgent: agent }, urn: name && urn(name) }),
  );

afterEach(() => {
  host = new Host();
});

describe("a number bound by two PhoneNumber resources", () => {
  it("is refused at the second one's check, naming both resources and not the number", async () => {
    expect((await check("line-a", "+15550010002")).failures).toEqual([]);
    const second = await check("line-b", "+15550010002");
    expect(second.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^number is also bound by PhoneNumber 'line-a' in this program: .*Remove 'line-b' or 'line-a'.*nothing was sent to the service$/,
        ),
      },
    ]);
    expect(JSON.stringify(second.failures)).not.toContain("+15550010002");
  });

  it("is no conflict for the same resource checked twice, other numbers, or a caller that cannot say which resource it checks", async () => {
    expect((await check("line-a", "+15550010002")).failures).toEqual([]);
    expect((await check("line-a", "+15550010002")).failures).toEqual([]);
    expect((await check("line-b", "+15550010003")).failures).toEqual([]);
    expect((await check(undefined, "+15550010002")).failures).toEqual([]);
  });
});
