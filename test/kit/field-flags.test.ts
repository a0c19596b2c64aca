// A field's flags answer one question each (how a change applies, what unset means, how it
// compares, whether it is a credential), and a combination that means nothing does not compile:
// each `@ts-expect-error` below fails `npm run typecheck` the day the type lets it through. The
// runtime checks show what the accepted ones do.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { bodiesOf, diffOf } from "../../provider/resources/kit/derive.js";
import { defineKind, type Field } from "../../provider/resources/kit/kind.js";

interface Live {
  id: string;
  name: string | null;
  tags: string[];
  size: number;
}
interface Body {
  name?: string | null;
  tags?: string[];
  size?: number;
}
type Inputs = { name?: string; tags?: string[]; size?: number; legacy?: boolean };
type F<P> = Field<P, Live, Body, Inputs>;

describe("a field's flags", () => {
  it("reject combinations that mean nothing, at compile time", () => {
    const read = (l: Live) => l.name ?? undefined;
    const fields: unknown[] = [
      { doc: "", wire: "name", read, unset: "clear" } satisfies F<string | undefined>,
      { doc: "", wire: "name", read, unset: "clear", emptyIsUnset: true } satisfies F<string | undefined>,
      { doc: "", wire: "tags", read: (l: Live) => l.tags, compare: "set" } satisfies F<string[] | undefined>,
      { doc: "", wire: null, change: "inert" } satisfies F<boolean | undefined>,
      // @ts-expect-error a property that replaces is never updated, so there is nothing to clear
      { doc: "", wire: "name", read, change: "replaces", unset: "clear" } satisfies F<string | undefined>,
      // @ts-expect-error a property never sent cannot be cleared by sending null
      { doc: "", wire: null, read, unset: "clear" } satisfies F<string | undefined>,
      // @ts-expect-error only a list compares as a set
      { doc: "", wire: "size", read: (l: Live) => l.size, compare: "set" } satisfies F<number | undefined>,
      // @ts-expect-error only a string has an empty string
      { doc: "", wire: "size", read: (l: Live) => l.size, emptyIsUnset: true } satisfies F<number | undefined>,
      // @ts-expect-error an inert property is never sent
      { doc: "", wire: "name", change: "inert" } satisfies F<string | undefined>,
      // @ts-expect-error an inert property is never compared
      { doc: "", wire: null, change: "inert", compare: "value" } satisfies F<boolean | undefined>,
      // @ts-expect-error an inert property holds no credential
      { doc: "", wire: null, change: "inert", secret: true } satisfies F<boolean | undefined>,
      // A credential: its answer is write-only, derived; it is never read back.
      { doc: "", wire: "name", secret: true } satisfies F<string | undefined>,
      { doc: "", wire: "name", answer: "write-only" } satisfies F<string | undefined>,
      // @ts-expect-error a write-only property is never read from the live object (it reads as the value sent)
      { doc: "", wire: "name", read, secret: true } satisfies F<string | undefined>,
      // @ts-expect-error a credential is write-only: it cannot be declared echoed
      { doc: "", wire: "name", secret: true, answer: "echo" } satisfies F<string | undefined>,
      // @ts-expect-error a property never sent has no answer of the service to declare
      { doc: "", wire: null, answer: "write-only" } satisfies F<string | undefined>,
      // @ts-expect-error a write-only property compares by the value sent, never as a set
      { doc: "", wire: "tags", answer: "write-only", compare: "set" } satisfies F<string[] | undefined>,
    ];
    expect(fields).toHaveLength(17);
  });

  it("do what they say: clear sends null, a set ignores order, replaces replaces, inert never differs", () => {
    const kind = defineKind<Live, Body>()({
      kind: "Flagged",
      collection: "agents",
      doc: "",
      input: z.object({
        name: z.string().optional(),
        tags: z.array(z.string()).optional(),
        size: z.number().optional(),
        legacy: z.boolean().optional(),
      }),
      fields: {
        name: { doc: "", wire: "name", read: (l) => l.name ?? undefined, unset: "clear", emptyIsUnset: true },
        tags: { doc: "", wire: "tags", read: (l) => l.tags, compare: "set" },
        size: { doc: "", wire: "size", read: (l) => l.size, change: "replaces", unset: "service-decides" },
        legacy: { doc: "", wire: null, change: "inert" },
      },
      outputs: {},
      create: () => Promise.reject(new Error("not called")),
    });
    expect(bodiesOf(kind, { name: "" }).update).toEqual({ name: null });
    const olds = { name: "a", tags: ["x", "y"], size: 2, legacy: true };
    expect(diffOf(kind, olds, { name: "a", tags: ["y", "x"], legacy: false })).toEqual({ changed: [], replaces: [] });
    expect(diffOf(kind, olds, { name: "a", tags: ["x", "y"], size: 3 })).toEqual({
      changed: ["size"],
      replaces: ["size"],
    });
  });
});
