# Registers resources with nested inputs through the generated Python SDK under Pulumi's mocks (no
# engine, no plugin) and prints, as one JSON line, the inputs each registration sent: what the
# provider's Check receives. Usage: python nested_check.py SDK_DIR
import importlib.metadata
import json
import sys

# The SDK is imported from its source folder, not installed: its version lookup gets a stand-in.
_version = importlib.metadata.version
importlib.metadata.version = lambda name: "0.0.0" if name == "pulumi_voiceagent" else _version(name)
sys.path.insert(0, sys.argv[1])

import pulumi  # noqa: E402

sent = {}


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        sent[args.name] = args.inputs
        return [args.name + "-id", args.inputs]

    def call(self, args):
        return {}


pulumi.runtime.set_mocks(Mocks(), preview=False)
import pulumi_voiceagent as voiceagent  # noqa: E402

def report(_):
    print(json.dumps(sent, sort_keys=True))


@pulumi.runtime.test
def declare():
    VOICE = "3f1c2a4e-1b2c-4d5e-8f90-123456789abc"
    # A Python user's plain dicts, keys in snake_case.
    dicts = voiceagent.Agent(
        "dicts",
        prompt="p",
        voice=VOICE,
        llm_fallback={"provider": "azure", "model_name": "gpt-4o-mini"},
        deepgram_keywords={"cita": 2, "receta_medica": 1.5},
    )
    prompt_dicts = voiceagent.Prompt(
        "prompt-dicts",
        content="c",
        collect_fields=[{"name": "email", "label": "Email", "field_type": "field_type_email"}],
    )
    # The Args classes.
    classes = voiceagent.Agent(
        "classes",
        prompt="p",
        voice=VOICE,
        llm_fallback=voiceagent.AgentLlmFallbackArgs(provider=voiceagent.LlmFallbackProvider.AZURE, model_name="gpt-4o"),
    )
    prompt_classes = voiceagent.Prompt(
        "prompt-classes",
        content="c",
        collect_fields=[voiceagent.PromptCollectFieldsArgs(name="email", label="Email", description="Where to write")],
    )
    action = voiceagent.Action("transfer", type="action_transfer_call", config={"phone_number": "+15550010001"})
    # An external action's config class (its JSON schema's own keys in snake_case) and a trigger as a plain dict.
    lookup = voiceagent.Action(
        "lookup",
        type=voiceagent.ActionType.EXTERNAL,
        signature_secret="sig",
        config=voiceagent.ActionConfigArgs(
            name="lookup_patient",
            description="d",
            url="https://api.clinic.example/patients",
            input_schema={"type": "object", "properties": {"date_of_birth": {"type": "string"}}},
            speak_on_send=True,
            speak_on_receive=False,
        ),
    )
    hold = voiceagent.Action(
        "hold",
        type="action_set_hold",
        action_trigger={"type": "action_trigger_phrase_based", "phrase_triggers": [{"phrase": "please hold"}]},
    )
    return pulumi.Output.all(
        dicts.id, prompt_dicts.id, classes.id, prompt_classes.id, action.id, lookup.id, hold.id
    ).apply(report)


declare()
