// The test caches in the OS temp folder (packed tarballs, release folders) are keyed by content, so
// each build adds an entry: pruneCache keeps what a run may still use and removes the rest.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { pruneCache } from "./consumer.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

it("keeps the entry in use, the recently used ones and the newest spares; removes the rest", () => {
  const root = mkdtempSync(path.join(tmpdir(), "va-prune-"));
  roots.push(root);
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  const entry = (name: string, usedHoursAgo: number) => {
    const p = path.join(root, name);
    mkdirSync(p);
    utimesSync(p, hoursAgo(usedHoursAgo), hoursAgo(usedHoursAgo));
    return p;
  };
  const inUse = entry("in-use", 30);
  entry("an-hour-ago", 1);
  for (const h of [3, 4, 5, 6, 7, 8]) entry(`${h}h-ago`, h);
  // What a prune killed halfway left behind, however recent.
  entry("9h-ago.trash-1a2b3c4d", 0);
  pruneCache(root, inUse, { maxAgeMs: 2 * 3_600_000, spare: 4 });
  // Newest first: an-hour-ago (young), then 3h..5h (the spares with it), 6h..8h and the trash removed.
  expect(readdirSync(root).sort()).toEqual(["3h-ago", "4h-ago", "5h-ago", "an-hour-ago", "in-use"].sort());
});
