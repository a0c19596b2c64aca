// The current API's production setup (docs/current-kinds.md, docs/current-fields.md) in an SDK
// example's stack, after its own scenario: the same installed SDK, plugin and stack, pointed at an
// emulator of the current API (2024). Its nested inputs (an agent's llmFallback and Deepgram
// keywords, a prompt's collected fields) are written the SDK's way; each must reach the service
// as declared, and a preview propose no change; where the driver does not leave it to another
// language's run (`handEdits`: the plugin's Read and Diff, the same whatever the language), a hand
// edit is seen by `up --refresh`, which takes it back, and a refreshing preview is then empty.
// Where the program declares them (Python, YAML: issue 50), the service's other actions beside
// them: an external action with a signature secret and a nested input schema, a transfer set off
// by a phrase, and a hold.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { startEmulator } from "voiceagent-emulator";
import { changed, type SdkStack } from "./sdk-stack.js";

/** Change counts without "same". */
type Counts = Record<string, number>;

/** How a project runs: an SDK example's runner, or the Pulumi CLI on a YAML project. */
export interface CurrentDriver {
  /** `pulumi config set [--secret]` on the stack. */
  set(key: string, value: string, secret?: boolean): Promise<void>;
  /** `pulumi config rm`, ignoring a key that is not set. */
  rm(key: string): Promise<void>;
  /** Where the driver can: several keys set in one command (`config set-all`); else `set` per key. */
  setAll?(values: Record<string, { value: string; secret?: boolean }>): Promise<void>;
  /** Where the driver can: several keys removed in one command (`config rm-all`); else `rm` per key. */
  rmAll?(keys: string[]): Promise<void>;
  /** Rewrites (and rebuilds) the program so that it declares the setup; returns the undo. */
  use(): Promise<() => Promise<void>>;
  /** An up (with a refresh first): its change counts and the stack's outputs. */
  up(refresh?: boolean): Promise<{ changes: Counts; outputs: Record<string, unknown> }>;
  preview(refresh?: boolean): Promise<Counts>;
  /** A preview expected to fail: its exit code and everything it printed. */
  failingPreview(): Promise<{ code: number | null; printed: string }>;
  destroy(): Promise<Counts>;
  /** The settings of the stack before the test, put back after it. */
  before: { baseUrl: string; token: string };
  /**
   * What a misspelt nested key (config `misspelt`: the fallback's model under `modl_name`) prints
   * at preview, or undefined where it cannot be written (Go: a misspelt field does not compile).
   */
  misspelt?: RegExp;
  /**
   * Set where the program declares the actions (lookup, transfer, hold) with the signature secret
   * `SIGNATURE` written in it as a plain string: where that secret appears in plain text (the
   * export, the backend's files, what the CLI and the program printed).
   */
  actions?: { plaintext(secret: string): Promise<string[]> };
  /**
   * false where another language's run of this scenario proves the hand edits (what a refresh
   * sees and an up --refresh puts back is the plugin's Read and Diff, whatever the language): the
   * run then proves the SDK's wiring only (up, what reached the service, a no-change preview, destroy).
   */
  handEdits?: boolean;
}

/** Sets the values in one command where the driver can. */
async function setAll(run: CurrentDriver, values: Record<string, { value: string; secret?: boolean }>): Promise<void> {
  if (run.setAll) return run.setAll(values);
  for (const [key, { value, secret }] of Object.entries(values)) await run.set(key, value, secret);
}

/** Removes the keys in one command where the driver can. */
async function rmAll(run: CurrentDriver, keys: string[]): Promise<void> {
  if (run.rmAll) return run.rmAll(keys);
  for (const key of keys) await run.rm(key);
}

/**
 * The external action's signature secret, a plain string in the programs (test/sdk/current_setup.py,
 * test/yaml/current-setup.yaml): the provider keeps it secret by nature.
 */
export const SIGNATURE = "sig-setup-secret-4e8b1d27";
/** The transfer's phrase as declared (the programs write it). */
const PHRASE = "talk to a human";
/** The external action's URL as declared. */
const LOOKUP_URL = "https://api.clinic.example/patients";

/**
 * The resources the setup declares (two prompts, a vector database, an OpenAI connection, two
 * agents, and where declared three actions), and the stack's own resource, which the scenario's
 * destroy removed too.
 */
const resources = (run: CurrentDriver) => 6 + (run.actions ? 3 : 0) + 1;

type Stored = { config?: Record<string, unknown> };

/** Registers the setup's test on a stack its scenario's destroy left empty. */
export function currentSetupScenario(run: CurrentDriver): void {
  const handEdits = run.handEdits ?? true;
  const title =
    "the current API's production setup with nested inputs: " +
    (run.misspelt ? "a misspelt nested key fails at preview naming its path; " : "") +
    "up; " +
    (!handEdits
      ? "no-change preview; "
      : "a hand edit of the fallback's model and a collected field's label " +
        (run.actions ? "and of a transfer's phrase and an external action's URL " : "") +
        "seen by up --refresh and put back, then an empty refreshing preview; ") +
    (run.actions ? "the signature secret in no output, export or backend file; " : "") +
    "destroy";
  it(title, async () => {
    const token = `current-${randomUUID()}`;
    const emu = await startEmulator({ tokens: [token], seed: true, api: "2024" });
    const service = async (route: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await fetch(`${emu.url}${route}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${route} answered ${res.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const undo = await run.use();
    try {
      await setAll(run, {
        "voiceagent:baseUrl": { value: emu.url },
        "voiceagent:token": { value: token, secret: true },
        "voiceagent:api": { value: "2024" },
        current: { value: "true" },
        currentVoice: { value: emu.seeds.get(token)!.voices[0]! },
        ...(run.misspelt ? { misspelt: { value: "true" } } : {}),
      });

      if (run.misspelt) {
        emu.resetStats();
        const bad = await run.failingPreview();
        await run.rm("misspelt");
        expect(bad.code).not.toBe(0);
        expect(bad.printed).toMatch(run.misspelt);
        expect(emu.stats.writes).toEqual({});
      }

      const count = resources(run);
      /** An action as the service keeps it: its answers may mask the signature secret. */
      const kept = (id: unknown) =>
        emu.store.get<Stored>("action", emu.store.userFor(token).userId, String(id))?.config ?? {};
      const up = await run.up();
      expect(up.changes).toEqual({ create: count });
      // The deployed value reads back as the SDK's output type.
      expect(up.outputs.fallbackModel).toBe("gpt-4o-mini");
      const agentId = String(up.outputs.recepcionId);
      const promptId = String(up.outputs.bookingId);
      const agent = await service(`/v1/agents?id=${agentId}`);
      expect(agent.llm_fallback).toEqual({ provider: "azure", model_name: "gpt-4o-mini" });
      expect(agent.deepgram_keywords).toEqual({ cita: 2, receta_medica: 1.5 });
      const guardia = await service(`/v1/agents?id=${String(up.outputs.guardiaId)}`);
      expect(guardia.llm_fallback).toEqual({ provider: "openai", model_name: "gpt-4.1" });
      const declaredFields = [{ name: "email", label: "Email address", field_type: "field_type_email" }];
      expect((await service(`/v1/prompts?id=${promptId}`)).collect_fields).toEqual(declaredFields);
      expect((await service(`/v1/prompts?id=${String(up.outputs.intakeId)}`)).collect_fields).toEqual([
        { name: "phone", label: "Phone number", description: "A number to call back", field_type: "field_type_email" },
      ]);
      const declaredLookup = {
        name: "lookup_patient",
        url: LOOKUP_URL,
        speak_on_send: true,
        speak_on_receive: false,
        signature_secret: SIGNATURE,
        // The schema's own keys as written, snake_case ones too: a JSON object the SDK does not rename.
        input_schema: {
          type: "object",
          properties: {
            date_of_birth: { type: "string" },
            name: { type: "object", properties: { last: { type: "string" } } },
          },
        },
      };
      const phrases = async (id: unknown) =>
        ((await service(`/v1/actions?id=${String(id)}`)).action_trigger as {
          type?: string;
          config?: { phrase_triggers?: { phrase: string; conditions: string[] }[] };
        }) ?? {};
      if (run.actions) {
        expect(kept(up.outputs.lookupId)).toMatchObject(declaredLookup);
        expect(await phrases(up.outputs.transferId)).toEqual({
          type: "action_trigger_phrase_based",
          config: { phrase_triggers: [{ phrase: PHRASE, conditions: ["phrase_condition_type_contains"] }] },
        });
        expect((await service(`/v1/actions?id=${String(up.outputs.transferId)}`)).config).toMatchObject({
          phone_number: "+15550100700",
        });
        const hold = await service(`/v1/actions?id=${String(up.outputs.holdId)}`);
        expect(hold.type).toBe("action_set_hold");
        expect(await phrases(up.outputs.holdId)).toMatchObject({
          config: { phrase_triggers: [{ phrase: "please hold" }] },
        });
      }
      if (!handEdits) expect(await run.preview()).toEqual({});
      else {
        // Someone edits the fallback's model and a collected field's label on the service.
        await service(`/v1/agents/update?id=${agentId}`, {
          llm_fallback: { provider: "azure", model_name: "gpt-4.1" },
        });
        await service(`/v1/prompts/update?id=${promptId}`, {
          collect_fields: [{ name: "email", label: "Correo", field_type: "field_type_email" }],
        });
        // ... and, where declared, the transfer's phrase and the external action's URL.
        if (run.actions) {
          await service(`/v1/actions/update?id=${String(up.outputs.transferId)}`, {
            type: "action_transfer_call",
            config: { phone_number: "+15550100700" },
            action_trigger: {
              type: "action_trigger_phrase_based",
              config: { phrase_triggers: [{ phrase: "operator", conditions: ["phrase_condition_type_contains"] }] },
            },
          });
          await service(`/v1/actions/update?id=${String(up.outputs.lookupId)}`, {
            type: "action_external",
            config: { ...kept(up.outputs.lookupId), url: "https://elsewhere.example/patients" },
          });
        }
        const edited = run.actions ? 4 : 2;
        // No plain preview: that one misses a hand edit is the engine's (test/yaml/yaml.test.ts,
        // "preview --expect-no-changes passes right after up ..."), and a diff the nested inputs
        // would show with no edit shows below, as an update beyond the edited resources or in the
        // refreshing preview.
        // The refresh sees the edits (the program is unchanged: only they can make updates), the up puts them back.
        const putBack = (await run.up(true)).changes;
        expect(putBack).toMatchObject({ update: edited });
        expect(Object.keys(putBack).filter((op) => op !== "update")).toEqual([]);
        expect((await service(`/v1/agents?id=${agentId}`)).llm_fallback).toEqual({
          provider: "azure",
          model_name: "gpt-4o-mini",
        });
        expect((await service(`/v1/prompts?id=${promptId}`)).collect_fields).toEqual(declaredFields);
        if (run.actions) {
          expect((await phrases(up.outputs.transferId)).config?.phrase_triggers?.map((p) => p.phrase)).toEqual([
            PHRASE,
          ]);
          expect(kept(up.outputs.lookupId)).toMatchObject(declaredLookup);
        }
        expect(await run.preview(true)).toEqual({});
      }
      // While the stack holds the action (its export is empty after destroy), and after destroy's output.
      if (run.actions) expect(await run.actions.plaintext(SIGNATURE)).toEqual([]);

      expect(await run.destroy()).toEqual({ delete: count });
      if (run.actions) expect(await run.actions.plaintext(SIGNATURE)).toEqual([]);
    } finally {
      await rmAll(run, ["current", "currentVoice", "misspelt", "voiceagent:api"]);
      await setAll(run, {
        "voiceagent:baseUrl": { value: run.before.baseUrl },
        "voiceagent:token": { value: run.before.token, secret: true },
      });
      await undo();
      await emu.close();
    }
  }, 600_000);
}

/**
 * The driver of an SDK example's stack (test/sdk/sdk-stack.ts), its program switched by `use`;
 * `misspelt`, `actions` (the program declares them) and `handEdits` as CurrentDriver's; `cli`: the
 * program run by the CLI through its language host (SdkStack's `cli`), not by the example's runner.
 */
export function sdkDriver(
  ctx: SdkStack,
  use: () => Promise<() => Promise<void>>,
  opts: { misspelt?: RegExp; actions?: boolean; handEdits?: boolean; cli?: boolean } = {},
): CurrentDriver {
  const counts = (summary: { changes: Counts; outputs: Record<string, unknown> }) => changed(summary);
  const { misspelt, actions = false, handEdits = true } = opts;
  /** Runs `up`, `preview` or `destroy` as the options say, with its summary. */
  const summary = (command: "up" | "preview" | "destroy", ...flags: string[]) =>
    opts.cli ? ctx.cli(command, ...flags) : ctx.summary(command, ...flags);
  return {
    set: async (key, value, secret = false) => {
      await ctx.pulumi("config", "set", ...(secret ? ["--secret"] : []), key, value);
    },
    rm: async (key) => {
      await ctx.pulumi("config", "rm", key).catch(() => undefined);
    },
    setAll: async (values) => {
      await ctx.pulumi(
        "config",
        "set-all",
        ...Object.entries(values).flatMap(([key, { value, secret }]) => [
          secret ? "--secret" : "--plaintext",
          `${key}=${value}`,
        ]),
      );
    },
    // `config rm-all` passes over a key that is not set.
    rmAll: async (keys) => {
      await ctx.pulumi("config", "rm-all", ...keys);
    },
    use,
    up: async (refresh = false) => {
      const up = await summary("up", ...(refresh ? ["--refresh"] : []));
      return { changes: counts(up), outputs: up.outputs };
    },
    preview: async (refresh = false) => counts(await summary("preview", ...(refresh ? ["--refresh"] : []))),
    failingPreview: async () => {
      const r = opts.cli ? await ctx.attempt("preview") : await ctx.program("preview");
      return { code: r.code, printed: r.stdout + r.stderr };
    },
    destroy: async () => counts(await summary("destroy")),
    get before() {
      return { baseUrl: ctx.emu.url, token: ctx.token };
    },
    ...(misspelt ? { misspelt } : {}),
    ...(actions ? { actions: { plaintext: (secret: string) => ctx.plaintext(secret) } } : {}),
    handEdits,
  };
}
