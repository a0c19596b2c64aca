"""An agent speaking with the voice named "alloy", bound to the account's first free number, on the native voiceagent provider.

Run it either way:

    pulumi up                           # through a Python language host (upstream's, or this repository's)
    python __main__.py up [--stack dev] # any pulumi CLI on PATH: the Automation API runs it inline

The second form also takes `preview [--refresh]`, `refresh` and `destroy`, and `--summary` to end
with one JSON line of the change counts and outputs (secrets masked).
"""

import json
import os
import sys

import pulumi
import pulumi_voiceagent as voiceagent


PROMPT = "You are a friendly receptionist. Take a message and end the call politely."


def program() -> None:
    """The stack: what `pulumi up` makes the service match."""
    config = pulumi.Config()
    # Secret either way: set with `pulumi config set --secret prompt ...`, or the default here; it is
    # stored encrypted in state, and the plugin never logs it.
    prompt = config.get_secret("prompt") or pulumi.Output.secret(PROMPT)
    # Lookups run in preview too and only read: the voice called "alloy" (exactly one must exist).
    voice = voiceagent.get_voice_output(voice_name=config.get("voiceName") or "alloy")
    agent = voiceagent.Agent(
        "receptionist",
        prompt=prompt,
        initial_message="Hello, you've reached the front desk.",
        voice=voice.id,
    )
    number = config.get("number")
    if number:
        line = voiceagent.PhoneNumber("front-desk", number=number, inbound_agent=agent.id)
    else:
        # The account's first free number, picked once: ignore_changes keeps the one bound by the
        # first `up` (after it, that number is no longer free and the lookup answers the next one).
        free = voiceagent.get_phone_numbers_output(active=True, bound=False)
        line = voiceagent.PhoneNumber(
            "front-desk",
            number=free.numbers.apply(_first_number),
            inbound_agent=agent.id,
            opts=pulumi.ResourceOptions(ignore_changes=["number"]),
        )
    pulumi.export("agentId", agent.id)
    pulumi.export("number", line.number)
    call_id = config.get("callId")
    if call_id:
        # Secret as a whole: a call's transcript and error message are secret.
        pulumi.export("callStatus", voiceagent.get_call_output(id=call_id).status)
    existing = config.get("existingAgent")
    if existing:
        # An agent made elsewhere, read into the stack (never changed or deleted by it); its prompt
        # is kept secret in the state.
        found = voiceagent.Agent.get("existing", existing, opts=pulumi.ResourceOptions(additional_secret_outputs=["prompt"]))
        pulumi.export("existingVoice", found.voice)


def _first_number(numbers: list) -> str:
    if not numbers:
        raise Exception("get_phone_numbers found no free active number on this account: buy one, or set `number`")
    return numbers[0].number


def drive(argv: list[str]) -> int:
    """Runs `program` through the Automation API: the CLI on PATH, this folder's Pulumi.yaml."""
    from pulumi import automation as auto

    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    stack_name = "dev"
    if "--stack" in argv:
        stack_name = argv[argv.index("--stack") + 1]
        args.remove(stack_name)
    command = args[0] if args else "up"
    if command not in ("up", "preview", "refresh", "destroy"):
        print(f"usage: python __main__.py [up|preview|refresh|destroy] [--stack NAME] [--refresh] [--summary]; got {command!r}", file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    stack = auto.create_or_select_stack(
        stack_name, project_name="voiceagent-python", program=program, opts=auto.LocalWorkspaceOptions(work_dir=here)
    )
    out = lambda line: print(line, flush=True)  # noqa: E731 - the engine's lines, as `pulumi` prints them
    try:
        if command == "up":
            result = stack.up(on_output=out, refresh="--refresh" in flags)
            changes, outputs = result.summary.resource_changes, result.outputs
        elif command == "preview":
            result = stack.preview(on_output=out, refresh="--refresh" in flags, diff=True)
            changes, outputs = result.change_summary, {}
        elif command == "refresh":
            result = stack.refresh(on_output=out)
            changes, outputs = result.summary.resource_changes, {}
        else:
            result = stack.destroy(on_output=out)
            changes, outputs = result.summary.resource_changes, {}
    except auto.errors.CommandError as err:
        # The engine already printed what failed and whether anything was changed.
        print(str(err), file=sys.stderr)
        return 1
    if "--summary" in flags:
        shown = {k: ("[secret]" if v.secret else v.value) for k, v in outputs.items()}
        print(json.dumps({"changes": dict(changes or {}), "outputs": shown}))
    return 0


if pulumi.runtime.settings.get_monitor() is not None:
    # Run by a language host (`pulumi up`): the engine is already connected.
    program()
elif __name__ == "__main__":
    sys.exit(drive(sys.argv[1:]))
