// One number, one PhoneNumber: a second resource binding it is refused at check, naming both,
// never the number; the same resource checked again (a migration) is no conflict. A LinkedNumber
// of that number sets its inbound agent too, so it is refused beside a PhoneNumber, either way round.
import { afterEach, describe, expect, it } from "vitest";
import { Host } from "../../provider/host.js";
import { RequestScope } from "../../provider/resources/kit/scope.js";
import { KINDS } from "../../provider/resources/kinds/index.js";

// The API generation set: no check asks the service which one it speaks.
const settingsOf = (api: "2023" | "2024") => ({
  baseUrl: "http://127.0.0.1:9",
  token: "t0ken-value",
  config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
});
const settings = settingsOf("2023");
const agent = "11111111-1111-4111-8111-111111111111";
const connection = "22222222-2222-4222-8222-222222222222";
const urn = (name: string, kind = "PhoneNumber") => `urn:pulumi:dev::p::voiceagent:index:${kind}::${name}`;
// The kit's runtimes, as the native plugin calls them (with the URN of the resource it checks).
const runtime = KINDS.find((k) => k.kind === "PhoneNumber")!.runtime;
const linkedRuntime = KINDS.find((k) => k.kind === "LinkedNumber")!.runtime;
// Each test is its own program: a host of its own (what a plugin process builds at its main).
let host = new Host();
const check = (name: string | undefined, number: string) =>
  host.run(() =>
    runtime.check({
      scope: RequestScope.of(host, settings, { urn: name && urn(name) }),
      olds: {},
      news: { number, inboundAgent: agent },
    }),
  );

const link = (name: string, number: string) =>
  host.run(() =>
    linkedRuntime.check({
      scope: RequestScope.of(host, settingsOf("2024"), { urn: urn(name, "LinkedNumber") }),
      olds: {},
      news: { number, telephonyAccountConnection: connection, inboundAgent: agent },
    }),
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

describe("a number declared by a PhoneNumber and a LinkedNumber", () => {
  const refusal = (mine: string, theirs: string) =>
    new RegExp(
      `^number of ${mine} is also the number of ${theirs} in this program: ` +
        `a number is bound by a PhoneNumber or linked by a LinkedNumber, never both .*nothing was sent to the service$`,
    );

  it("is refused at the LinkedNumber's check when the PhoneNumber came first, naming both resources and fields, not the number", async () => {
    expect((await check("line-a", "+15550010002")).failures).toEqual([]);
    const second = await link("own-a", "+15550010002");
    expect(second.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(refusal("LinkedNumber 'own-a'", "PhoneNumber 'line-a'")),
    ]);
    expect(JSON.stringify(second.failures)).not.toContain("+15550010002");
  });

  it("is refused at the PhoneNumber's check when the LinkedNumber came first", async () => {
    expect((await link("own-a", "+15550010002")).failures).toEqual([]);
    const second = await check("line-a", "+15550010002");
    expect(second.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(refusal("PhoneNumber 'line-a'", "LinkedNumber 'own-a'")),
    ]);
  });

  it("is no conflict for either checked twice, or for a PhoneNumber and a LinkedNumber of different numbers", async () => {
    expect((await link("own-a", "+15550010002")).failures).toEqual([]);
    expect((await link("own-a", "+15550010002")).failures).toEqual([]);
    expect((await check("line-a", "+15550010003")).failures).toEqual([]);
    expect((await check("line-a", "+15550010003")).failures).toEqual([]);
  });
});
