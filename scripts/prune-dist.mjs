// Deletes built files whose TypeScript source is gone (a renamed or removed module), so neither a
// test nor `npm pack` can pick up code that no longer exists. tsc -b never removes them itself.
// Usage: node scripts/prune-dist.mjs <package folder>...  (each with its sources beside dist/)
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";

for (const pkg of process.argv.slice(2)) {
  const dist = path.join(pkg, "dist");
  if (!existsSync(dist)) continue;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const m = /^(.*)\.(d\.ts|js|js\.map|d\.ts\.map)$/.exec(path.relative(dist, full));
        if (m && !existsSync(path.join(pkg, `${m[1]}.ts`))) rmSync(full);
      }
    }
  };
  walk(dist);
}
