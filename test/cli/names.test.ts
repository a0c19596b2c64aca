// Resource names and variable names of pulled programs: readable, stable, unique, never reserved.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  actionBaseName,
  agentBaseName,
  camel,
  numberBaseName,
  slug,
  uniqueNames,
  variableNamer,
  voiceBaseName,
  webhookBaseName,
} from "../../provider/cli/names.js";

describe("base names are readable and derived from the object", () => {
  it.each([
    ["You are the support line of Example Co. Help callers.", "support-line-of-example"],
    ["You're a friendly receptionist; take messages.", "friendly-receptionist"],
    ["Act as an Überprüfer für Rechnungen", "uberprufer-fur-rechnungen"],
    ["   ", "agent"],
    ["日本語のみ", "agent"],
    ["You are the", "you-are-the"],
  ])("agent %j → %s", (prompt, name) => {
    expect(agentBaseName({ prompt })).toBe(name);
  });

  it("voices, actions, webhooks and numbers", () => {
    expect(voiceBaseName({ voice_name: "en-US-JennyNeural" })).toBe("en-us-jennyneural");
    expect(actionBaseName({ type: "action_transfer_call", config: { phone_number: "+15551234567" } })).toBe(
      "transfer-call-4567",
    );
    expect(actionBaseName({ type: "action_end_conversation", config: {} })).toBe("end-conversation");
    expect(webhookBaseName({ url: "https://hooks.example.com/va/events?x=1" })).toBe("hooks-example-com-va-events");
    expect(webhookBaseName({ url: "not a url" })).toBe("not-a-url");
    // The whole number stays out of the URN.
    expect(numberBaseName({ number: "+15550010001" })).toBe("line-0001");
  });

  it("slugs are short, lowercase ASCII and dash-separated whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        const s = slug(text);
        expect(s).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*)?$/);
        expect(s.length).toBeLessThanOrEqual(40);
      }),
    );
  });
});

describe("collisions are resolved deterministically", () => {
  const objs = (bases: string[]) => bases.map((base) => ({ id: randomUUID(), base }));

  it("leaves unique names alone and suffixes every member of a colliding group with its id", () => {
    const [a, b, c] = objs(["support", "support", "sales"]);
    const names = uniqueNames([a!, b!, c!]);
    expect(names.get(c!.id)).toBe("sales");
    expect(names.get(a!.id)).toBe(`support-${a!.id.slice(0, 8)}`);
    expect(names.get(b!.id)).toBe(`support-${b!.id.slice(0, 8)}`);
  });

  it("lengthens the suffix when ids share a prefix, and when a suffixed name meets a base name", () => {
    const a = { id: "aaaaaaaa-1111-4000-8000-000000000001", base: "x" };
    const b = { id: "aaaaaaaa-2222-4000-8000-000000000002", base: "x" };
    const c = { id: "cccccccc-3333-4000-8000-000000000003", base: "x-aaaaaaaa1111" };
    const names = uniqueNames([a, b, c]);
    expect(new Set(names.values()).size).toBe(3);
    expect(names.get(b.id)).toBe("x-aaaaaaaa2222");
  });

  it("names are unique and do not depend on the order objects are listed in", () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.record({ id: fc.uuid(), base: fc.constantFrom("a", "b", "a-1", "support") }), { maxLength: 30 })
          .chain((xs) => {
            const unique = [...new Map(xs.map((x) => [x.id, x])).values()];
            return fc.tuple(
              fc.constant(unique),
              fc.shuffledSubarray(unique, { minLength: unique.length, maxLength: unique.length }),
            );
          }),
        ([listed, shuffled]) => {
          const one = uniqueNames(listed);
          const two = uniqueNames(shuffled);
          expect(new Set(one.values()).size).toBe(listed.length);
          for (const o of listed) expect(two.get(o.id)).toBe(one.get(o.id));
        },
      ),
    );
  });
});

describe("variable names", () => {
  it("are camelCase, never reserved words or the program's imports, and unique", () => {
    const name = variableNamer();
    expect(name("support-line", "Agent")).toBe("supportLine");
    expect(name("delete", "Agent")).toBe("deleteAgent");
    expect(name("class", "Voice")).toBe("classVoice");
    expect(name("va", "Voice")).toBe("vaVoice");
    expect(name("pulumi", "Webhook")).toBe("pulumiWebhook");
    expect(name("support-line", "PhoneNumber")).toBe("supportLinePhoneNumber");
    expect(name("support-line", "PhoneNumber")).toBe("supportLinePhoneNumber2");
    expect(name("0001", "PhoneNumber")).toBe("phonenumber0001");
    expect(name("", "Voice")).toBe("voice");
  });

  it("are always valid identifiers", () => {
    const name = variableNamer();
    fc.assert(
      fc.property(fc.string(), fc.constantFrom("Agent", "Voice", "PhoneNumber"), (n, kind) => {
        const v = name(slug(n), kind);
        expect(v).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
        expect(() => new Function(`"use strict"; const ${v} = 1; return ${v};`)).not.toThrow();
      }),
    );
  });

  it("camel keeps digits and drops separators", () => {
    expect(camel("line-0001")).toBe("line0001");
    expect(camel("en-us-jennyneural")).toBe("enUsJennyneural");
  });
});
