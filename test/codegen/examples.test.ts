// The examples the schema and the classes show (provider/examples/<name>.ts, .py, .go, .yaml)
// compile against what users get: TypeScript against the package's types (one in-process program),
// Python against the generated SDK (compiled, and every name and keyword argument looked up in it:
// one python run), Go against sdk/go (one `go vet`), Pulumi YAML against the plugin's schema (one
// `pulumi preview` of all of them in one program, against a seeded emulator: the YAML host checks
// types only there). A snippet naming a property the SDK lacks fails here.
import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createClient } from "pulumi-voiceagent/client";
import { startEmulator } from "voiceagent-emulator";
import { examplesOf, snippetOf } from "../../provider/codegen/examples.js";
import { FUNCTIONS } from "../../provider/resources/functions/index.js";
import { KIND_NAMES, KINDS } from "../../provider/resources/kinds/index.js";
import { CURRENT_COLLECTIONS } from "../../provider/client/index.js";
import { REPO_ROOT, run } from "../helpers/consumer.js";
import { mergeExamples, projectYaml, type YamlProgram } from "./yaml-examples.js";

const dir = path.join(REPO_ROOT, "provider", "examples");
const files = (ext: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(`.${ext}`))
    .map((f) => path.join(dir, f));
const names = [...KIND_NAMES, ...FUNCTIONS.map((f) => f.name)];
/**
 * The YAML snippets of what only the current API (2024) has (their header says so): the interface
 * refuses them at preview, so they are previewed together against a service speaking 2024.
 */
const isCurrentOnly = (file: string) => /^#.*The current API \(2024\) only/m.test(readFileSync(file, "utf8"));
/** The kinds of the current API's own collections: their examples preview against a service speaking it. */
const CURRENT_ONLY = KINDS.filter((k) => CURRENT_COLLECTIONS.some((c) => c === k.info.collection)).map((k) => k.kind);
/** Whether a YAML example declares a current-only kind or calls one of its lookups. */
const currentOnly = (file: string) =>
  CURRENT_ONLY.some((k) => new RegExp(`voiceagent:(get)?${k}s?\\b`).test(readFileSync(file, "utf8")));

describe("the per-language examples", () => {
  it("exist for every kind and function, one snippet per language", () => {
    for (const name of names) {
      const { example, examples } = examplesOf(name);
      for (const text of [example, examples.python, examples.go, examples.yaml]) expect(text.trim(), name).not.toBe("");
    }
    // Nothing else: every file is some kind's or function's.
    expect(files("ts").length).toBe(names.length);
  });

  it("show the lines between the markers, without their shared indentation", () => {
    const text = "package x\n\nfunc f() {\n\t// example begin\n\ta := 1\n\tif a {\n\t\tb()\n\t}\n\t// example end\n}\n";
    expect(snippetOf(text, "x.go")).toBe("a := 1\nif a {\n\tb()\n}");
    expect(() => snippetOf("x = 1\n", "x.py")).toThrow(/x\.py.*example begin/);
  });

  it("TypeScript: compile against the package's types", () => {
    const program = ts.createProgram(files("ts"), {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2023,
      // Top-level await, as in a Pulumi program that is an ES module.
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(errors).toEqual([]);
  });

  it("Python: compile, and name only what the generated SDK has", async () => {
    const python = process.env.VOICEAGENT_PYTHON;
    if (!python) throw new Error("VOICEAGENT_PYTHON is not set: run the tests through scripts/run.sh");
    const script = path.join(REPO_ROOT, "test", "codegen", "examples_check.py");
    const r = await run(python, [script, path.join(REPO_ROOT, "sdk", "python"), ...files("py")], { cwd: dir });
    expect(`${r.stdout}${r.stderr}`).toBe("");
    expect(r.code).toBe(0);
  });

  it("Go: vet against sdk/go (the module's replace directive)", async () => {
    const env = {
      ...process.env,
      // The CLI's build flags, so the Pulumi SDK packages come from the build cache the Go SDK test fills.
      GOFLAGS: "-mod=mod -buildvcs=false -trimpath -tags=osusergo,grpcnotrace",
      GOTOOLCHAIN: "local",
      CGO_ENABLED: "0",
    };
    const r = await run("go", ["vet", "."], { cwd: dir, env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  }, 600_000);

  it(`Pulumi YAML: one preview of every snippet together type-checks them; a property the schema lacks fails it; examples/yaml \
previews`, async () => {
    const program = mergeExamples(files("yaml").filter((f) => !isCurrentOnly(f) && !currentOnly(f)));
    const currentProgram = mergeExamples(files("yaml").filter(currentOnly));
    expect(Object.keys(currentProgram.resources).length).toBe(CURRENT_ONLY.length);
    const token = `yaml-examples-${randomUUID()}`;
    const emu = await startEmulator({ tokens: [token], seed: true });
    const tmp = mkdtempSync(path.join(os.tmpdir(), "va-yaml-examples-"));
    try {
      // What the lookups read: an agent and a call made beforehand, and +15550010001 bound (the
      // first free number, which get-phone-numbers binds, is then another than phone-number's).
      const client = createClient({ baseUrl: emu.url, token });
      const seed = emu.seeds.get(token)!;
      const agent = await client.agents.create({ prompt: "Seeded.", voice: seed.voices[0]! });
      await client.numbers.update(seed.numbers[0]!, agent.id);
      const call = await client.calls.create({
        from_number: seed.numbers[0]!,
        to_number: "+15557654321",
        agent: agent.id,
      });
      const env = {
        ...process.env,
        PULUMI_BACKEND_URL: `file://${path.join(tmp, "state")}`,
        PULUMI_CONFIG_PASSPHRASE: "yaml-examples",
        VOICEAGENT_BASE_URL: emu.url,
        VOICEAGENT_TOKEN: token,
      };
      mkdirSync(path.join(tmp, "state"));
      const plugin = path.join(REPO_ROOT, "provider", "dist", "plugin");
      const preview = async (p: YamlProgram) => {
        writeFileSync(path.join(tmp, "Pulumi.yaml"), projectYaml("yaml-examples", p, plugin));
        return run("pulumi", ["preview", "--stack", "examples", "--non-interactive"], { cwd: tmp, env });
      };
      const must = async (...args: string[]) => {
        const r = await run("pulumi", [...args, "--stack", "examples", "--non-interactive"], { cwd: tmp, env });
        expect(r.code, `pulumi ${args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(0);
      };
      writeFileSync(path.join(tmp, "Pulumi.yaml"), projectYaml("yaml-examples", program, plugin));
      await must("stack", "init");
      await must("config", "set", "agentId", agent.id);
      await must("config", "set", "callId", call.id);

      const ok = await preview(program);
      expect(`${ok.stdout}${ok.stderr}`).not.toMatch(/error/i);
      expect(ok.code).toBe(0);
      // Every resource of every snippet was checked and planned.
      for (const name of Object.keys(program.resources)) expect(ok.stdout).toContain(name);

      // The same program with one property the schema lacks: the host refuses it by name.
      const [first, decl] = Object.entries(program.resources)[0]!;
      const bad = structuredClone(program);
      const props = (decl as { properties: Record<string, unknown> }).properties;
      bad.resources[first] = { ...(decl as object), properties: { ...props, voiceNmae: "alloy" } };
      const refused = await preview(bad);
      expect(refused.code).not.toBe(0);
      expect(`${refused.stdout}${refused.stderr}`).toMatch(
        /Property voiceNmae does not exist on 'voiceagent:index:Action'/,
      );

      // examples/yaml (the clinic: voice types of the current API) against a service speaking it.
      const current = await startEmulator({ tokens: [token], seed: true, api: "2024" });
      try {
        const clinic = path.join(tmp, "clinic");
        cpSync(path.join(REPO_ROOT, "examples", "yaml"), clinic, { recursive: true });
        const manifest = path.join(clinic, "Pulumi.yaml");
        writeFileSync(
          manifest,
          readFileSync(manifest, "utf8").replace("path: ../../provider/dist/plugin", `path: ${plugin}`),
        );
        const clinicEnv = { ...env, VOICEAGENT_BASE_URL: current.url };
        const inClinic = (...args: string[]) =>
          run("pulumi", [...args, "--stack", "clinic", "--non-interactive"], { cwd: clinic, env: clinicEnv });
        const numbers = current.seeds.get(token)!.numbers;
        expect((await inClinic("stack", "init")).code).toBe(0);
        expect(
          (await inClinic("config", "set", "--secret", "frontPrompt", "You are the clinic's front desk.")).code,
        ).toBe(0);
        // Unquoted, Pulumi YAML reads a number from the stack's config as a number
        // (pulumi/pulumi-yaml#577): refused at preview, saying how to quote it.
        expect((await inClinic("config", "set", "mainNumber", numbers[0]!)).code).toBe(0);
        expect((await inClinic("config", "set", "nurseNumber", numbers[1]!)).code).toBe(0);
        const unquoted = await inClinic("preview");
        expect(unquoted.code).not.toBe(0);
        // The first of the two the engine checks (a line's number or the transfer action's).
        const told = `${unquoted.stdout}${unquoted.stderr}`;
        expect(told).toMatch(
          new RegExp(
            /[nN]umber must be an E\.164 phone number string such as \+15551234567, not the number \d+: /.source +
              /Pulumi YAML reads a config value that looks like a number as a number; set it as a JSON string/.source,
          ),
        );
        // Quoted, as its Pulumi.yaml says.
        expect((await inClinic("config", "set", "mainNumber", `"${numbers[0]!}"`)).code).toBe(0);
        expect((await inClinic("config", "set", "nurseNumber", `"${numbers[1]!}"`)).code).toBe(0);
        const planned = await inClinic("preview");
        expect(`${planned.stdout}${planned.stderr}`).toMatch(/\+ 13 to create/);
        expect(planned.code).toBe(0);

        // The snippets only the current API has, in one preview of their own (ids a preview never sends).
        const newer = path.join(tmp, "current-only");
        mkdirSync(newer);
        const headerOnly = mergeExamples(files("yaml").filter((f) => isCurrentOnly(f) && !currentOnly(f)));
        writeFileSync(path.join(newer, "Pulumi.yaml"), projectYaml("yaml-examples-current", headerOnly, plugin));
        const onCurrent = (...args: string[]) =>
          run("pulumi", [...args, "--stack", "examples", "--non-interactive"], { cwd: newer, env: clinicEnv });
        expect((await onCurrent("stack", "init")).code).toBe(0);
        const previewed = await onCurrent(
          "preview",
          ...Object.keys(headerOnly.config).flatMap((k) => ["--config", `${k}=${randomUUID()}`]),
        );
        expect(`${previewed.stdout}${previewed.stderr}`).not.toMatch(/error/i);
        expect(previewed.code).toBe(0);
        for (const name of Object.keys(headerOnly.resources)) expect(previewed.stdout).toContain(name);
        expect(current.stats.writes).toEqual({});

        // The current API's own kinds and lookups, together, against the same service.
        const own = path.join(tmp, "current-examples");
        mkdirSync(own);
        writeFileSync(path.join(own, "Pulumi.yaml"), projectYaml("current-examples", currentProgram, plugin));
        const inOwn = (...args: string[]) =>
          run("pulumi", [...args, "--stack", "current", "--non-interactive"], { cwd: own, env: clinicEnv });
        const client = createClient({ baseUrl: current.url, token, api: "2024" });
        const prompt = await client.prompts.create({ content: "Seeded." });
        const conn = await client.account_connections.create({
          type: "account_connection_openai",
          credentials: { openai_api_key: "sk-seeded" },
        });
        // What getVectorDatabase's example looks up by its index.
        await client.vector_databases.create({ index: "clinic-faq", api_key: "pc-seeded", api_environment: "e" });
        const seeded = { ...current.stats.writes };
        expect((await inOwn("stack", "init")).code).toBe(0);
        for (const [key, value, secret] of [
          ["promptId", prompt.id, false],
          ["accountConnectionId", conn.id, false],
          ["pineconeApiKey", "pc-example", true],
          ["twilioAuthToken", "tw-example", true],
        ] as const)
          expect((await inOwn("config", "set", ...(secret ? ["--secret"] : []), key, value)).code).toBe(0);
        const ownPlanned = await inOwn("preview");
        expect(`${ownPlanned.stdout}${ownPlanned.stderr}`).not.toMatch(/error/i);
        expect(ownPlanned.code).toBe(0);
        for (const name of Object.keys(currentProgram.resources)) expect(ownPlanned.stdout).toContain(name);
        // The preview wrote nothing: only what the test seeded before it.
        expect(current.stats.writes).toEqual(seeded);
      } finally {
        await current.close();
      }
    } finally {
      await emu.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 180_000);
});
