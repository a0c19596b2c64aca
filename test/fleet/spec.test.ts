// The fleet's two derivations from the kinds agree: the zod schema that checks a document
// (fleet/entries.ts, built at run time) and the public TypeScript types `npm run gen` writes
// (generated/fleet-spec.ts). The compiler cannot hold them to each other, since the schema is
// built from the registry at run time: this does, key by key, required or not.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { entrySchema } from "../../provider/fleet/entries.js";
import { ENTRY_SECTIONS, kindInfoOf } from "../../provider/fleet/sections.js";
import { REPO_ROOT } from "../helpers/consumer.js";

const generated = readFileSync(path.join(REPO_ROOT, "provider/generated/fleet-spec.ts"), "utf8");

/** The members of one generated interface: name, and whether it may be left out. */
function members(name: string): Record<string, boolean> {
  const body = new RegExp(`export interface ${name} [^{]*\\{([\\s\\S]*?)\\n\\}`).exec(generated)?.[1] ?? "";
  return Object.fromEntries([...body.matchAll(/^ {2}(\w+)(\??): /gm)].map((m) => [m[1], m[2] === "?"]));
}

describe("the fleet's entry types", () => {
  it.each(ENTRY_SECTIONS)(
    "%s: the generated interface has the schema's keys, each optional as the schema says",
    (s) => {
      const info = kindInfoOf(s);
      const js = z.toJSONSchema(entrySchema(info), { io: "output", unrepresentable: "any" });
      const required = new Set(js.required ?? []);
      const fromSchema = Object.fromEntries(
        Object.keys(js.properties ?? {})
          .filter((k) => k !== "id" && k !== "was")
          .map((k) => [k, !required.has(k)]),
      );
      expect(Object.keys(fromSchema).length).toBeGreaterThan(0);
      expect(members(`Fleet${info.kind}`)).toEqual(fromSchema);
    },
  );
});
