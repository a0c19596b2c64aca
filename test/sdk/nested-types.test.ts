// The nested inputs of the package schema's object types (issue 47), as the generated Python SDK
// sends them: registered under Pulumi's mocks (no engine, no plugin, no service), a plain dict
// with snake_case keys and the Args classes alike reach the provider with the schema's camelCase
// keys, a map's own keys untouched; what arrives passes the kinds' check.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkInputs } from "../../provider/resources/kit/check.js";
import { KINDS } from "../../provider/resources/kinds/index.js";
import { SECRET_SIG, SIG_KEY } from "../../provider/plugin/grpc.js";
import { REPO_ROOT, run } from "../helpers/consumer.js";
import { python } from "./wheel.js";

type Sent = Record<string, Record<string, unknown>>;

const kindOf = (name: string) => {
  const found = KINDS.find((k) => k.info.kind === name);
  if (!found) throw new Error(`no kind ${name}`);
  return found.info;
};

describe("the Python SDK's nested input types", () => {
  it("translate snake_case keys of a dict and of the Args classes to the schema's, keep a map's keys, and pass the check", async () => {
    if (!python) throw new Error("VOICEAGENT_PYTHON is not set: run the tests through scripts/run.sh");
    const script = path.join(REPO_ROOT, "test", "sdk", "nested_check.py");
    const r = await run(python, [script, path.join(REPO_ROOT, "sdk", "python")], { cwd: REPO_ROOT });
    expect(r.code, r.stderr).toBe(0);
    const sent = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "") as Sent;
    expect(sent.dicts?.llmFallback).toEqual({ provider: "azure", modelName: "gpt-4o-mini" });
    expect(sent.dicts?.deepgramKeywords).toEqual({ cita: 2, receta_medica: 1.5 });
    expect(sent.classes?.llmFallback).toEqual({ provider: "azure", modelName: "gpt-4o" });
    expect(sent["prompt-dicts"]?.collectFields).toEqual([
      { name: "email", label: "Email", fieldType: "field_type_email" },
    ]);
    expect(sent["prompt-classes"]?.collectFields).toEqual([
      { name: "email", label: "Email", description: "Where to write" },
    ]);
    expect(sent.transfer?.config).toEqual({ phoneNumber: "+15550010001" });
    // A JSON schema is a map of anything: its own keys go as written, the config's known keys camelCase.
    expect(sent.lookup?.config).toEqual({
      name: "lookup_patient",
      description: "d",
      url: "https://api.clinic.example/patients",
      inputSchema: { type: "object", properties: { date_of_birth: { type: "string" } } },
      speakOnSend: true,
      speakOnReceive: false,
    });
    // The SDK sends the signature secret as a secret (the engine's secret signature), whatever the program wrote.
    const { signatureSecret, ...lookup } = sent.lookup ?? {};
    expect(signatureSecret).toEqual({ [SIG_KEY]: SECRET_SIG, value: "sig" });
    expect(sent.hold?.actionTrigger).toEqual({
      type: "action_trigger_phrase_based",
      phraseTriggers: [{ phrase: "please hold" }],
    });
    for (const [name, kind] of [
      ["dicts", "Agent"],
      ["classes", "Agent"],
      ["prompt-dicts", "Prompt"],
      ["prompt-classes", "Prompt"],
      ["transfer", "Action"],
      ["hold", "Action"],
    ] as const) {
      expect(checkInputs(kindOf(kind).input, sent[name] ?? {}).failures, name).toEqual([]);
    }
    // The engine hands the provider's Check the secret's value.
    expect(checkInputs(kindOf("Action").input, { ...lookup, signatureSecret: "sig" }).failures).toEqual([]);
  });
});
