// `npm run upgrade-fixture [-- --out DIR] [-- --force]`: writes the upgrade fixture of this
// release into test/upgrade/fixtures/<version>/ (see test/upgrade/fixture.ts): the root program
// deployed with the packed provider against a seeded emulator, credentials from the environment,
// then its state, the emulator's rows, the program and its project file. Run it once per release,
// on the release commit; the upgrade test then checks every later version against it.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, Store } from "voiceagent-emulator";
import { createConsumer, packProvider, REPO_ROOT } from "../test/helpers/consumer.js";
import {
  dumpRows,
  FIXTURES,
  projectFileFromRoot,
  projectFiles,
  readMeta,
  type FixtureMeta,
} from "../test/upgrade/fixture.js";

const { values: args } = parseArgs({
  options: { out: { type: "string" }, force: { type: "boolean", default: false } },
});
const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/package.json"), "utf8")) as { version: string })
  .version;
const out = path.resolve(args.out ?? path.join(FIXTURES, version));
if (existsSync(out) && !args.force) {
  console.error(`${out} exists: a release's fixture is written once (--force to replace it)`);
  process.exit(1);
}

const sdk = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as {
    version: string;
  }
).version;
const meta: FixtureMeta = {
  version,
  pulumi: sdk,
  project: /^name: (.+)$/m.exec(readFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), "utf8"))?.[1] ?? "pulumi-voiceagent",
  stack: "upgrade",
  token: "upgrade-fixture-token-not-a-secret",
  passphrase: "upgrade-fixture-passphrase",
  credentials: "env",
  written: new Date().toISOString().slice(0, 10),
};

// Staged beside the destination and moved into place only when complete.
const staging = `${out}.tmp`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
writeFileSync(path.join(staging, "fixture.json"), `${JSON.stringify(meta, null, 2)}\n`);
copyFileSync(path.join(REPO_ROOT, "index.ts"), path.join(staging, "index.ts"));
writeFileSync(path.join(staging, "Pulumi.yaml"), projectFileFromRoot());

const store = new Store();
const emu = await startEmulator({ db: store, tokens: [meta.token], seed: true });
const c = createConsumer({
  name: `fixture-${version}`,
  files: projectFiles(staging, readMeta(staging), await packProvider()),
  passphrase: meta.passphrase,
  env: { VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: meta.token },
});
try {
  console.log(`writing the ${version} fixture (in ${c.dir})`);
  await c.install();
  await c.pulumi(["stack", "init", meta.stack]);
  console.log("up:", await c.up());
  await c.pulumi(["preview", "--expect-no-changes"]);
  await c.pulumi(["stack", "export", "--file", path.join(staging, "state.json")]);
  writeFileSync(path.join(staging, "service.json"), `${JSON.stringify(dumpRows(store), null, 2)}\n`);
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
  console.log(`wrote ${out}`);
} finally {
  rmSync(staging, { recursive: true, force: true });
  c.dispose();
  await emu.close();
}
