// A test stack reads its outputs back from `stack export --show-secrets` (test/helpers/pulumi-stack.ts
// says why): each value and whether it is secret must be what the Automation API's two `stack
// output` listings give. The state below is what the CLI (3.274.1) exported for a YAML stack with
// the outputs x: 1, s: fn::secret hush, nested: { a: fn::secret { b: [1, "two"] }, c: plain };
// `stack output --json --show-secrets` printed the values expected here, and the masked listing
// printed "[secret]" for s and nested (the engine makes an object holding a secret secret).
import { describe, expect, it } from "vitest";
import { unwrapSecrets } from "./pulumi-stack.js";

const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const exported = {
  nested: { ...SIG, plaintext: '{"a":{"b":[1,"two"]},"c":"plain"}' },
  s: { ...SIG, plaintext: '"hush"' },
  x: 1,
};

describe("outputs read back from the exported state", () => {
  it("give the values and the secret marks of `stack output --json` with and without --show-secrets", () => {
    expect(Object.fromEntries(Object.entries(exported).map(([k, v]) => [k, unwrapSecrets(v)]))).toEqual({
      nested: { value: { a: { b: [1, "two"] }, c: "plain" }, secret: true },
      s: { value: "hush", secret: true },
      x: { value: 1, secret: false },
    });
  });

  it("unwrap a secret inside a plain object or array, leaving the outer value plain", () => {
    expect(unwrapSecrets({ list: [{ ...SIG, plaintext: "2" }], k: { ...SIG, plaintext: "null" } })).toEqual({
      value: { list: [2], k: null },
      secret: false,
    });
  });
});
