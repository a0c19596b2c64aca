// `npm run demo`: the main job. Starts the emulator with seed data, runs `pulumi up` on the root
// stack against it, prints the outputs, shows `pulumi preview` reporting no changes, and stops.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { startEmulator } from "voiceagent-emulator";

/**
 * The demo stack's passphrase: random, made once per clone and kept in the git-ignored
 * .pulumi-home, never a fixed public one. The stack is listed in .pulumi-home/emulator-stacks so
 * `npm run pulumi -- -s demo ...` finds it; no other stack gets it.
 */
function localPassphraseFile(root: string, stack: string): string {
  const home = path.join(root, ".pulumi-home");
  mkdirSync(home, { recursive: true });
  const file = path.join(home, "local-passphrase");
  if (!existsSync(file)) writeFileSync(file, randomBytes(24).toString("base64url"), { mode: 0o600 });
  const registry = path.join(home, "emulator-stacks");
  const listed = existsSync(registry) ? readFileSync(registry, "utf8").split("\n") : [];
  if (!listed.includes(stack)) appendFileSync(registry, `${stack}\n`);
  return file;
}

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
  const envVars = { PULUMI_CONFIG_PASSPHRASE_FILE: localPassphraseFile(ROOT, STACK) };
  const ws = await LocalWorkspace.create({ workDir: ROOT, envVars });
  await ws.removeStack(STACK, { force: true }).catch(() => undefined);
  const stack = await LocalWorkspace.createStack({ stackName: STACK, workDir: ROOT }, { envVars });
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
