// `npm run bench [-- --sizes 50,200,1000 --sections pulumi,emulator,client,account --seconds 5]`
// Everything is measured in one run, side by side, and written to .bench-out/latest.json.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { benchAccount } from "./account.js";
import { benchClient, benchEmulator } from "./http.js";
import { runFleet, type FaultRun } from "./faults.js";
import { runPhases, type PhaseResult } from "./pulumi-phases.js";
import { startBenchEmulator } from "./bench-emulator.js";
import { benchPluginStart } from "./plugin-start.js";
import { compareNative, nativeTables } from "./native.js";
import { benchLimitedStack, benchPacing } from "./rate-limit.js";
import { benchDynamicParts } from "./dynamic-parts.js";
import { benchRefreshParts } from "./refresh-parts.js";
import { benchSharedPace } from "./shared-pace.js";
import { benchTenants, paceSummary } from "./tenants.js";
import type { BenchMode } from "./pulumi-phases.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const opts = new Command()
  .option("--sizes <list>", "graph sizes N (N agents + N numbers)", "50,200,1000")
  .option(
    "--sections <list>",
    "pulumi, native, faults, emulator, client, account, plugin, dynamic, refresh, ratelimit, tenants (the last three not in the default)",
    "pulumi,native,faults,emulator,client,account,plugin,dynamic",
  )
  .option("--native-sizes <list>", "native section: sizes N run with default checkpoints", "200")
  .option(
    "--native-large <list>",
    "native section: sizes N run again with PULUMI_SKIP_CHECKPOINTS (e.g. 1000; slow: off unless given)",
    "",
  )
  .option("--rounds <n>", "native section: interleaved rounds of the four modes per size", "2")
  .option("--rate <r>", "ratelimit section: the emulator's limit, requests a second per token (burst the same)", "20")
  .option("--rate-sizes <list>", "ratelimit section: sizes N of the Pulumi runs under the limit (0: none)", "1000")
  .option(
    "--rate-modes <list>",
    "ratelimit section: which entries run under the limit: native, native-floor, floor (the no-op floors), ours (dynamic)",
    "native,ours",
  )
  .option("--rate-creates <n>", "ratelimit section: creates of the in-process client run, paced and unpaced", "400")
  .option("--tenants <n>", "tenants section: stacks deployed at once", "20")
  .option("--tenant-resources <n>", "tenants section: agents per tenant stack", "20")
  .option(
    "--tenant-rate <r>",
    "tenants section: the emulator's limit, requests a second per token (burst the same)",
    "20",
  )
  .option(
    "--tenant-pacing <list>",
    "tenants section: alone (each deployment paces alone), shared (the machine's pace), in that order",
    "alone,shared",
  )
  .option("--tenant-parallel <list>", "tenants section: stacks deployed at once, one run each (default: all of them)")
  .option(
    "--tenant-trace <file>",
    "tenants section: writes the machine-wide run's pace second by second (JSON) to this file",
  )
  .option("--refresh-size <n>", "refresh section: N agents + N bindings refreshed by the plugin over gRPC", "1000")
  .option("--plugin-starts <n>", "starts of the native plugin per compile-cache mode", "15")
  .option("--seconds <n>", "autocannon duration per run", "5")
  .option("--requests <n>", "sequential requests per client round", "2000")
  .option("--skip-checkpoints", "engine writes state once per operation (PULUMI_SKIP_CHECKPOINTS), for large N", false)
  .parse()
  .opts<{
    sizes: string;
    sections: string;
    seconds: string;
    requests: string;
    skipCheckpoints: boolean;
    pluginStarts: string;
    refreshSize: string;
    nativeSizes: string;
    nativeLarge: string;
    rounds: string;
    rate: string;
    rateSizes: string;
    rateModes: string;
    rateCreates: string;
    tenants: string;
    tenantResources: string;
    tenantRate: string;
    tenantPacing: string;
    tenantTrace?: string;
    tenantParallel?: string;
  }>();
const sections = new Set(opts.sections.split(","));
const sizes = opts.sizes.split(",").map(Number);
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
};
const fmt = (x: number, d = 2) => x.toFixed(d);
const print = (s: string) => process.stdout.write(`${s}\n`);

if (sections.has("pulumi")) {
  const { emulator, token, voice } = await startBenchEmulator(Math.max(...sizes));
  const table: Record<number, { floor: PhaseResult[]; ours: PhaseResult[] }> = {};
  try {
    for (const n of sizes) {
      const skipCheckpoints = opts.skipCheckpoints;
      const floor = await runPhases({ mode: "floor", n, emulator, token, voice, skipCheckpoints });
      print(`floor N=${n}: ${floor.map((p) => `${p.phase} ${fmt(p.seconds)}s`).join(", ")}`);
      const ours = await runPhases({ mode: "ours", n, emulator, token, voice, skipCheckpoints });
      table[n] = { floor, ours };
      const note = skipCheckpoints ? ", PULUMI_SKIP_CHECKPOINTS=true for both" : "";
      print(`\n### N = ${n} (${n} agents + ${n} number bindings${note})\n`);
      print("| phase | floor s | ours s | ours/floor | requests | reads | provider peak MiB (floor / ours) |");
      print("|---|---:|---:|---:|---:|---:|---:|");
      ours.forEach((o, i) => {
        const f = floor[i]!;
        print(
          `| ${o.phase} | ${fmt(f.seconds)} | ${fmt(o.seconds)} | ${fmt(o.seconds / f.seconds)} | ${o.requests} | ` +
            `${o.reads} | ${f.providerPeakMiB} / ${o.providerPeakMiB} |`,
        );
      });
    }
  } finally {
    await emulator.close();
  }
  results.pulumi = table;
}

if (sections.has("native")) {
  const list = (s: string) => s.split(",").filter(Boolean).map(Number);
  const rounds = Number(opts.rounds);
  const runs = [
    ...(list(opts.nativeSizes).length
      ? await compareNative({ sizes: list(opts.nativeSizes), rounds, skipCheckpoints: false, log: print })
      : []),
    ...(list(opts.nativeLarge).length
      ? await compareNative({ sizes: list(opts.nativeLarge), rounds, skipCheckpoints: true, log: print })
      : []),
  ];
  for (const c of runs) print(`\n${nativeTables(c).join("\n")}`);
  results.native = runs;
}

if (sections.has("faults")) {
  const runs: FaultRun[] = [];
  for (const n of sizes.filter((s) => s <= 200)) {
    const clean = await runFleet("clean", n);
    const faults = await runFleet("faults", n);
    runs.push(clean, faults);
    print(`\n### Fault mix, N = ${n} (${n} agents + ${n} bindings + voice, action, webhook)\n`);
    print("| run | ups to converge | wall s | requests | requests per object | duplicates |");
    print("|---|---:|---:|---:|---:|---:|");
    for (const r of [clean, faults]) {
      print(
        `| ${r.mode} | ${r.ups} | ${fmt(r.seconds)} | ${r.requests} | ${fmt(r.requestsPerObject)} | ${r.duplicates} |`,
      );
    }
    print(`\nfaulty/clean wall time = ${fmt(faults.seconds / clean.seconds)} (target <= 2)`);
  }
  results.faults = runs;
}

if (sections.has("emulator")) {
  const load = await benchEmulator(Number(opts.seconds));
  print("\n### Emulator under autocannon (10 connections)\n");
  print("| route | target | req/s | p50 ms | p99 ms | emulator/bare |");
  print("|---|---|---:|---:|---:|---:|");
  for (const r of load) {
    const bare = load.find((b) => b.route === r.route && b.target === "bare fastify")!;
    print(
      `| ${r.route} | ${r.target} | ${fmt(r.rps, 0)} | ${r.p50ms} | ${r.p99ms} | ${r.target === "emulator" ? fmt(r.rps / bare.rps) : ""} |`,
    );
  }
  results.emulator = load;
}

if (sections.has("client")) {
  const client = await benchClient(Number(opts.requests));
  const [bare, ours] = client;
  print("\n### Client per request (sequential GET /v1/agents/, same bare server)\n");
  print("| target | µs/request |");
  print("|---|---:|");
  for (const c of client) print(`| ${c.target} | ${fmt(c.usPerRequest, 0)} |`);
  print(
    `\nour client / bare got = ${fmt(ours!.usPerRequest / bare!.usPerRequest)}; overhead ` +
      `${fmt(ours!.usPerRequest - bare!.usPerRequest, 0)} µs per request`,
  );
  results.client = client;
}

if (sections.has("account")) {
  const reads = await benchAccount(ROOT, [0, 50]);
  print("\n### Reading a 1,000-object account (`voiceagent pull --json` vs the client's `list.all`)\n");
  print("| latency per request | how | read ms | requests |");
  print("|---:|---|---:|---:|");
  for (const r of reads) print(`| ${r.latencyMs} ms | ${r.how} | ${fmt(r.readMs, 0)} | ${r.requests} |`);
  // At 0 ms the bin's figure is a cold process (rounded to 0.1 s) against a warm client: not a ratio.
  for (const latency of [50]) {
    const [ours, seq] = [
      reads.find((r) => r.latencyMs === latency && r.how.startsWith("pull")),
      reads.find((r) => r.latencyMs === latency && !r.how.startsWith("pull")),
    ];
    if (ours && seq)
      print(`\nat ${latency} ms: pages together / page after page = ${fmt(ours.readMs / seq.readMs)} (target < 1)`);
  }
  results.account = reads;
}

if (sections.has("dynamic")) {
  const parts = await benchDynamicParts(1000);
  print("\n### The dynamic entry's parts: an agent's check and diff as the dynamic host runs them (CPU ms)\n");
  print(
    "| provider | text chars | first check + diff in this process | Struct round trip of inputs + outputs | check + diff with round trips |",
  );
  print("|---|---:|---:|---:|---:|");
  for (const p of parts)
    print(
      `| ${p.provider} | ${p.textChars} | ${fmt(p.firstCallsMs)} | ${p.wireMs.toFixed(3)} | ${p.checkDiffMs.toFixed(3)} |`,
    );
  results.dynamicParts = parts;
}

if (sections.has("tenants")) {
  const rate = Number(opts.tenantRate);
  const pacings = opts.tenantPacing.split(",").filter((p): p is "alone" | "shared" => p === "alone" || p === "shared");
  const tenants = Number(opts.tenants);
  const runs: Awaited<ReturnType<typeof benchTenants>> = [];
  for (const parallel of (opts.tenantParallel ?? String(tenants)).split(",").map(Number))
    runs.push(...(await benchTenants(rate, tenants, Number(opts.tenantResources), pacings, parallel)));
  print(
    `\n### ${opts.tenants} tenants x ${opts.tenantResources} agents, N stacks' ups at once, under ${rate} requests/s (burst the same)\n`,
  );
  print(
    "| pacing | N at once | seconds | requests answered | 429s (first 10 s of requests) | stacks failed | floor (requests / rate) | x floor | " +
      "service window: first -> last request, s | window x floor | load average before -> after |",
  );
  print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|");
  for (const r of runs)
    print(
      `| ${r.pacing === "alone" ? "each deployment alone" : "machine-wide"} | ${r.parallel} | ${fmt(r.seconds, 1)} | ` +
        `${r.requests} | ${r.rateLimited} (${r.rateLimitedEarly}) | ${r.failed} | ` +
        `${fmt(r.floorSeconds, 1)} | ${fmt(r.seconds / r.floorSeconds)} | ` +
        `${fmt(r.window.firstSeconds, 1)} -> ${fmt(r.window.lastSeconds, 1)} | ${fmt(r.window.seconds / r.floorSeconds)} | ` +
        `${r.load[0]} -> ${r.load[1]} |`,
    );
  for (const r of runs)
    if (r.firstFailure) print(`\n${r.pacing}, ${r.parallel} at once: first failure: ${r.firstFailure}`);
  for (const r of runs) if (r.pace.length) print(`\n${r.pacing}, ${r.parallel} at once: ${paceSummary(r)}`);
  const traced = runs.find((r) => r.pace.length);
  if (opts.tenantTrace && traced) writeFileSync(opts.tenantTrace, JSON.stringify(traced.pace, null, 1));
  results.tenants = runs;
}

if (sections.has("refresh")) {
  const n = Number(opts.refreshSize);
  const load = () =>
    os
      .loadavg()
      .map((l) => fmt(l, 2))
      .join(", ");
  const loadBefore = load();
  const parts = await benchRefreshParts(n, Number(opts.rounds));
  print(
    `\n### The native plugin's CPU in a refresh of ${n} agents + ${n} bindings, over gRPC without the engine (CPU ms of the plugin process)\n`,
  );
  print(`load average ${loadBefore} -> ${load()}\n`);
  print("| plugin | start to port line | Configure | refresh (Read + Diff each) | the same refresh again | requests |");
  print("|---|---:|---:|---:|---:|---:|");
  for (const p of parts)
    print(`| ${p.plugin} | ${p.startMs} | ${p.configureMs} | ${p.refreshMs} | ${p.againMs} | ${p.requests} |`);
  results.refreshParts = parts;
}

if (sections.has("plugin")) {
  const starts = await benchPluginStart(Number(opts.pluginStarts));
  print(
    `\n### Native plugin start (${opts.pluginStarts} starts per mode; spawn to port line, to first CheckConfig answered)\n`,
  );
  print(
    "| compile cache | port line ms (median / max) | CPU ms to port line (mean) | first answer ms (median) | peak RSS MiB |",
  );
  print("|---|---:|---:|---:|---:|");
  for (const r of starts)
    print(
      `| ${r.mode} | ${fmt(r.portMsMedian, 0)} / ${fmt(r.portMsMax, 0)} | ${fmt(r.cpuMsMean, 0)} | ` +
        `${fmt(r.readyMsMedian, 0)} | ${fmt(r.peakRssMiB, 1)} |`,
    );
  const warm = starts.find((r) => r.mode === "warm cache");
  if (warm)
    print(
      `\nwarm start to port line: ${fmt(warm.portMsMedian, 0)} ms median (target <= 300); load average ${os
        .loadavg()
        .map((l) => fmt(l, 1))
        .join(" ")}`,
    );
  // The release's executable against the npm package's script, same cache state, same run.
  for (const state of ["cold", "warm"]) {
    const [script, exe] = [
      starts.find((r) => r.mode === `${state} cache`),
      starts.find((r) => r.mode === `executable, ${state} cache`),
    ];
    if (script && exe) {
      print(
        `executable / script, ${state} cache: port line ${fmt(exe.portMsMedian / script.portMsMedian)}, ` +
          `CPU to port line ${fmt(exe.cpuMsMean / script.cpuMsMean)} (what load does not inflate), peak RSS ` +
          `${fmt(exe.peakRssMiB / script.peakRssMiB)}`,
      );
    }
  }
  results.pluginStart = starts;
}

if (sections.has("ratelimit")) {
  const rate = Number(opts.rate);
  // --rate-creates 0 skips the client-alone run (at 2,000 creates it takes over 3 minutes).
  const pacing = Number(opts.rateCreates) > 0 ? await benchPacing(rate, Number(opts.rateCreates)) : [];
  print(`\n### Under a limit of ${rate} requests a second per token (burst ${rate}): the client alone\n`);
  print("| client | creates | s | limit's floor s | s / floor | creates per s | per s / limit | 429s |");
  print("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of pacing)
    print(
      `| ${r.client} | ${r.creates} | ${fmt(r.seconds)} | ${fmt(r.floorSeconds)} | ${fmt(r.seconds / r.floorSeconds)} ` +
        `| ${fmt(r.perSecond)} | ${fmt(r.perSecond / rate)} | ${r.rateLimited} |`,
    );
  const shared = await benchSharedPace(rate, Number(opts.rateCreates));
  print(`\n### Under ${rate} requests a second: two provider processes of one deployment, one token\n`);
  print("| pacing | creates | s | limit's floor s | s / floor | 429s |");
  print("|---|---:|---:|---:|---:|---:|");
  for (const r of shared)
    print(
      `| ${r.pacing} | ${r.creates} | ${fmt(r.seconds)} | ${fmt(r.floorSeconds)} | ${fmt(r.seconds / r.floorSeconds)} | ${r.rateLimited} |`,
    );
  const stacks = [];
  const modes = opts.rateModes.split(",").filter(Boolean) as BenchMode[];
  for (const n of opts.rateSizes
    .split(",")
    .map(Number)
    .filter((x) => x > 0)) {
    // One entry at a time, each printed as it ends: at N = 1,000 one takes many minutes.
    for (const mode of modes) {
      const loadBefore = os.loadavg().map((l) => l.toFixed(2));
      const run = (await benchLimitedStack(rate, n, [mode], opts.skipCheckpoints))[0];
      if (!run) continue;
      stacks.push(run);
      const loadAfter = os.loadavg().map((l) => l.toFixed(2));
      const note = opts.skipCheckpoints ? ", PULUMI_SKIP_CHECKPOINTS=true" : "";
      print(`\n### Under ${rate} requests a second: ${run.mode}, N = ${n} (${n} agents + ${n} bindings)${note}\n`);
      print(`load average (1, 5, 15 min) at start ${loadBefore.join(", ")}, at end ${loadAfter.join(", ")}\n`);
      print("| phase | s | requests | 429s | limit's floor s (requests / rate) | s / floor |");
      print("|---|---:|---:|---:|---:|---:|");
      for (const p of run.phases) {
        const floor = (p.requests - p.rateLimited) / rate;
        print(
          `| ${p.phase} | ${fmt(p.seconds)} | ${p.requests} | ${p.rateLimited} | ${fmt(floor)} | ${floor > 0 ? fmt(p.seconds / floor) : ""} |`,
        );
      }
    }
  }
  results.rateLimit = { rate, pacing, shared, stacks };
}

mkdirSync(path.join(ROOT, ".bench-out"), { recursive: true });
writeFileSync(path.join(ROOT, ".bench-out/latest.json"), `${JSON.stringify(results, null, 2)}\n`);
print(`\n${results.machine}; ${results.date}; raw figures in .bench-out/latest.json`);
process.exit(0);
