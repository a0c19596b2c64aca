// `npm run demo`: the main job. Starts the emulator with seed data, runs `pulumi up` on the root
// stack against it, prints the outputs, shows `pulumi preview` reporting no changes, and stops.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { startEmulator } from "../emulator/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const STACK = "demo";
const say = (line: string) => process.stdout.write(`\n== ${line}\n`);

const token = `demo_${randomBytes(16).toString("base64url")}`;
const emulator = await startEmulator({ tokens: [token], seed: true });
let failed = false;
try {
  const seed = emulator.seeds.get(token)!;
  say(`emulator at ${emulator.url} (seeded numbers ${seed.numbers.join(", ")})`);

  // The emulator is in memory: start from a fresh stack so state matches it.
  rmSync(path.join(ROOT, `Pulumi.${STACK}.yaml`), { force: true });
  const ws = await LocalWorkspace.create({ workDir: ROOT });
  await ws.removeStack(STACK, { force: true }).catch(() => undefined);
  const stack = await LocalWorkspace.createStack({ stackName: STACK, workDir: ROOT });
  await stack.setAllConfig({
    "voiceagent:baseUrl": { value: emulator.url },
    "voiceagent:token": { value: token, secret: true },
  });

  say("pulumi up");
  const up = await stack.up({ onOutput: (out) => process.stdout.write(out) });

  say("stack outputs");
  const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
  process.stdout.write(`${JSON.stringify(outputs, null, 2)}\n`);

  say("pulumi preview (expect no changes)");
  const preview = await stack.preview({ onOutput: (out) => process.stdout.write(out) });
  const changed = Object.entries(preview.changeSummary).filter(([op, n]) => op !== "same" && (n ?? 0) > 0);
  if (changed.length) {
    failed = true;
    process.stderr.write(`preview after up is not clean: ${JSON.stringify(preview.changeSummary)}\n`);
  } else {
    say(`no changes: ${preview.changeSummary.same ?? 0} resources unchanged`);
  }
  say(`the emulator received ${emulator.stats.total} requests`);
} catch (err) {
  failed = true;
  process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
} finally {
  await emulator.close();
  say("emulator stopped");
}
process.exit(failed ? 1 : 0);
