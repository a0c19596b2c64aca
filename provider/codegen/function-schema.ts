import type { FunctionProperty } from "./describe.js";
import { type FunctionDescription, namedTypesOf } from "./describe-function.js";
import { exampleSection } from "./resource-docs.js";
import { tokenOf } from "../identity.js";
import type { JsonObject } from "../schemas/json.js";
import { typeSpec } from "./type-spec.js";

// The functions in the package schema: `functions` keyed by token, with `inputs` and `outputs`
// objects (https://www.pulumi.com/docs/iac/guides/building-extending/packages/schema/#function),
// and the named item types of their results under `types`.

function propertiesSpec(props: readonly FunctionProperty[]): JsonObject {
  return Object.fromEntries(
    props.map((p) => [p.name, { ...typeSpec(p.type), description: p.doc, ...(p.secret ? { secret: true } : {}) }]),
  );
}

function objectSpec(props: readonly FunctionProperty[]): JsonObject {
  const required = props.filter((p) => p.required).map((p) => p.name);
  return { properties: propertiesSpec(props), type: "object", ...(required.length ? { required } : {}) };
}

/** The `functions` section: each function's description (with its examples), inputs and outputs. */
export function functionsSpec(functions: readonly FunctionDescription[]): JsonObject {
  return Object.fromEntries(
    functions.map((f) => [
      tokenOf(f.name),
      {
        description: `${f.doc}${
          f.secret
            ? " Its result holds secrets: the Output form is secret as a whole, and Go's " +
              "plain form refuses a secret result (use the Output form)."
            : ""
        }\n\n${exampleSection(f)}`,
        ...(f.inputs.length ? { inputs: objectSpec(f.inputs) } : {}),
        outputs: objectSpec(f.outputs),
      },
    ]),
  );
}

/** The named object types the functions' results use (`FoundVoice`...), each once. */
export function namedTypes(functions: readonly FunctionDescription[]): JsonObject {
  return Object.fromEntries(
    namedTypesOf(functions).map((t) => [tokenOf(t.name), { description: t.doc, ...objectSpec(t.properties) }]),
  );
}
