# Hand-written (sdk-overlays/python/fleet.py, shipped by `npm run gen:sdks`): the Fleet of the
# TypeScript package for Python programs. The fleet's shape is checked against zod's JSON Schema of
# provider/fleet/schema.ts (_fleet_schema.py, generated), with the same messages; only the checks by
# key (references, duplicates, renames) are written here, after provider/fleet/check.ts.
# test/fleet/python-check.test.ts runs both checks on the same fleets and compares every message.
import json
import re
import typing

import pulumi

from ._fleet_schema import SCHEMA
from .account_connection import AccountConnection
from .action import Action
from .agent import Agent
from .linked_number import LinkedNumber
from .phone_number import PhoneNumber
from .prompt import Prompt
from .purchased_number import PurchasedNumber
from .vector_database import VectorDatabase
from .voice import Voice
from .webhook import Webhook

__all__ = ["Fleet", "FleetConfigError", "check_fleet", "fleet_from_config"]

SECTIONS = ("voices", "actions", "webhooks", "prompts", "vectorDatabases", "accountConnections", "agents", "lines")
# An agent's current-API (2024) fields: the stack file's key, and the Agent argument it passes as.
_AGENT_CURRENT = {
    "promptId": "prompt_id", "name": "name", "language": "language",
    "interruptSensitivity": "interrupt_sensitivity", "endpointingSensitivity": "endpointing_sensitivity",
    "ivrNavigationMode": "ivr_navigation_mode", "conversationSpeed": "conversation_speed",
    "initialMessageDelay": "initial_message_delay", "idleTimeSeconds": "idle_time_seconds",
    "askIfHumanPresentOnIdle": "ask_if_human_present_on_idle", "noiseSuppression": "noise_suppression",
    "runDoNotCallDetection": "run_do_not_call_detection", "contextEndpoint": "context_endpoint",
    "llmTemperature": "llm_temperature", "openaiModelNameOverride": "openai_model_name_override",
    "llmFallback": "llm_fallback", "deepgramKeywords": "deepgram_keywords",
    "vectorDatabase": "vector_database", "openaiAccountConnection": "openai_account_connection",
}
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")
_PLAIN = re.compile(r"^[A-Za-z0-9_-]+$")
_HTTP = re.compile(r"^https?://[^\s/?#]+", re.I)


class FleetConfigError(pulumi.RunError):
    """Every problem of a fleet value, one per line, each naming its path; no stack trace."""

    def __init__(self, problems: typing.List[str], source: str = "fleet", file: str = "Pulumi.<stack>.yaml"):
        self.problems = problems
        n = len(problems)
        super().__init__(
            f"{source}: {'1 problem' if n == 1 else f'{n} problems'} in the stack's {source} value; "
            f"nothing was sent to the service. Correct {'it' if n == 1 else 'them'} in {file} "
            f"(or with `pulumi config set --path`) and run `pulumi preview` again:\n"
            + "\n".join(f"  {p}" for p in problems)
        )


def format_path(source: str, path: typing.Sequence[typing.Union[str, int]]) -> str:
    """A path as `pulumi config set --path` takes it: fleet.agents.support.actions[0]."""
    out = source
    for seg in path:
        if isinstance(seg, int) and not isinstance(seg, bool):
            out += f"[{seg}]"
        elif _PLAIN.match(seg):
            out += f".{seg}"
        else:
            out += f"[{json.dumps(seg)}]"
    return out


def _kind(v: typing.Any) -> str:
    """The type name zod prints for a received value."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _digits(plus: str, v: typing.Any) -> typing.Any:
    """YAML reads an unquoted +15551234567 or 415 as an integer: take the digits back as meant."""
    return f"{plus}{v}" if isinstance(v, int) and not isinstance(v, bool) and v > 0 else v


def _coerce(value: typing.Any) -> typing.Any:
    """The schema's preprocessing: empty sections are absent, numbers written as integers are strings."""
    if not isinstance(value, dict):
        return value
    value = {k: v for k, v in value.items() if not (k in SECTIONS and v is None)}
    for line in (value.get("lines") or {}).values() if isinstance(value.get("lines"), dict) else []:
        if isinstance(line, dict):
            if "number" in line:
                line["number"] = _digits("+", line["number"])
            if isinstance(line.get("buy"), dict) and "areaCode" in line["buy"]:
                line["buy"]["areaCode"] = _digits("", line["buy"]["areaCode"])
    for action in (value.get("actions") or {}).values() if isinstance(value.get("actions"), dict) else []:
        if isinstance(action, dict) and isinstance(action.get("config"), dict) and "phoneNumber" in action["config"]:
            action["config"]["phoneNumber"] = _digits("+", action["config"]["phoneNumber"])
    return value


def _known_at(path: typing.Sequence[typing.Union[str, int]]) -> typing.List[str]:
    known = SCHEMA["x-known-keys"]
    if len(path) == 0:
        return known["fleet"]
    if len(path) == 3 and path[0] == "lines" and path[2] == "buy":
        return known["buy"]
    if len(path) == 3 and path[0] == "lines" and path[2] == "link":
        return known["link"]
    return known[path[0]] if len(path) == 2 and path[0] in SECTIONS else []


_Issue = typing.Tuple[list, str, bool]


def _walk(v: typing.Any, s: dict, path: list, out: typing.List[_Issue]) -> None:
    """The problems of v against the JSON Schema node s, as zod reports them: (path, message, fatal)."""
    msg = s.get("x-message")
    if "anyOf" in s:
        if not any(not _errors(v, alt, path) for alt in s["anyOf"]):
            out.append((path, "Invalid input", True))
        return
    t = s.get("type")
    if t == "object":
        record = "propertyNames" in s
        if not isinstance(v, dict):
            out.append((path, f"expected {'record' if record else 'object'}, received {_kind(v)}", True))
            return
        if record:
            for k, item in v.items():
                if not re.search(s["propertyNames"]["pattern"], k):
                    out.append((path + [k], s["propertyNames"].get("x-message", "Invalid key in record"), True))
                else:
                    before = len(out)
                    _walk(item, s["additionalProperties"], path + [k], out)
                    # zod runs a refinement unless an issue before it was fatal (a wrong type, a missing or unknown key).
                    if path == ["lines"] and isinstance(item, dict) and not any(f for _, _, f in out[before:]):
                        out.extend(_line_rules(path + [k], item))
                    if path == ["voices"] and isinstance(item, dict) and not any(f for _, _, f in out[before:]):
                        out.extend(_voice_rules(path + [k], item))
            return
        props = s.get("properties", {})
        for k, sub in props.items():
            if k in v:
                _walk(v[k], sub, path + [k], out)
            elif k in s.get("required", []):
                out.append((path + [k], "required", True))
        if s.get("additionalProperties") is False:
            unknown = [k for k in v if k not in props]
            if unknown:
                known = _known_at(path)
                hint = f" (known: {', '.join(known)})" if known else ""
                out.extend((path + [k], "unknown key" + hint, False) for k in unknown)
        return
    if t == "array":
        if not isinstance(v, list):
            out.append((path, f"expected array, received {_kind(v)}", True))
            return
        if len(v) < s.get("minItems", 0):
            out.append((path, msg or "Too small", False))
        for i, item in enumerate(v):
            _walk(item, s["items"], path + [i], out)
        return
    if t in ("integer", "number"):
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            out.append((path, f"expected number, received {_kind(v)}", True))
        elif t == "integer" and not float(v).is_integer():
            out.append((path, msg or "expected int, received number", False))
        return
    if t == "boolean":
        if not isinstance(v, bool):
            out.append((path, f"expected boolean, received {_kind(v)}", True))
        return
    if t == "string":
        # An enum judges any value by its options, a number too (zod's z.enum has no type check of its own).
        if "enum" in s:
            if not isinstance(v, str) or v not in s["enum"]:
                # zod words a one-value enum as a literal: `expected "x"`.
                out.append((path, f'expected {json.dumps(s["enum"][0])}' if len(s["enum"]) == 1
                            else "Invalid option: expected one of " + "|".join(json.dumps(e) for e in s["enum"]), True))
        elif not isinstance(v, str):
            out.append((path, f"expected string, received {_kind(v)}", True))
        elif len(v) < s.get("minLength", 0) or ("pattern" in s and not re.search(s["pattern"], v)):
            out.append((path, msg or "Invalid string", False))
        elif s.get("format") == "uri" and not _HTTP.match(v):
            out.append((path, msg or "Invalid URL", False))


def _errors(v: typing.Any, s: dict, path: list) -> list:
    out: typing.List[_Issue] = []
    _walk(v, s, path, out)
    return out


def _voice_rules(path: list, voice: dict) -> typing.List[_Issue]:
    """A voice_base voice (the type when none is set) needs voiceName, pitch and rate (schema.ts's superRefine)."""
    if voice.get("type", "voice_base") != "voice_base":
        return []
    return [(path + [f], "required", False) for f in ("voiceName", "pitch", "rate") if f not in voice]


def _line_rules(path: list, line: dict) -> typing.List[_Issue]:
    """The rules of a line that span two fields (schema.ts's superRefine)."""
    out: typing.List[_Issue] = []
    if "link" in line and "buy" in line:
        out.append(
            (path + ["link"], "a linked number is one of your Twilio account's: give `number` with `link`, not `buy`", False)
        )
    if ("number" in line) == ("buy" in line):
        out.append((path, "give either `number` (one the account owns) or `buy` (one to buy), not both or neither", False))
    # A linked number may have no agent (outbound only, or linked for later); a binding needs one.
    if "agent" not in line and "link" not in line:
        out.append(
            (path + ["agent"], "required: the agent that answers the line (only a linked number, `link`, may have none)", False)
        )
    link = line.get("link")
    if "agent" in line and isinstance(link, dict) and link.get("outboundOnly") is True:
        out.append((
            path + ["agent"],
            "an outbound-only number (`link.outboundOnly: true`) has no agent answering it: remove `agent`, "
            "or set `link.outboundOnly` to false",
            False,
        ))
    if "protect" in line and "buy" not in line:
        out.append(
            (path + ["protect"], "only a bought number (`buy`) can be protected; a binding never cancels its number", False)
        )
    return out


def _references(raw: typing.Any, source: str) -> typing.List[str]:
    """References by key, duplicates and renames, on the raw value (provider/fleet/check.ts's referenceProblems)."""
    problems: typing.List[str] = []

    def entries(section: str) -> typing.List[typing.Tuple[str, dict]]:
        s = raw.get(section) if isinstance(raw, dict) else None
        return [(k, e) for k, e in s.items() if isinstance(e, dict)] if isinstance(s, dict) else []

    keys = {s: sorted(k for k, _ in entries(s)) for s in SECTIONS}

    def refer(path: list, value: typing.Any, section: str, noun: str) -> None:
        if not isinstance(value, str) or value == "" or _UUID.match(value):
            return
        have = keys[section]
        if value in have:
            return
        listed = (
            f"{section}: {', '.join(have)}"
            if have
            else f"the fleet declares no {section}; name an existing {noun} by its UUID"
        )
        at = format_path(source, path)
        problems.append(
            f'{at}: no {noun} named "{value}" ({listed})'
            if _NAME.match(value)
            else f"{at}: neither a {noun}'s name nor a UUID ({listed})"
        )

    for key, agent in entries("agents"):
        refer(["agents", key, "voice"], agent.get("voice"), "voices", "voice")
        refer(["agents", key, "webhook"], agent.get("webhook"), "webhooks", "webhook")
        if isinstance(agent.get("actions"), list):
            for i, a in enumerate(agent["actions"]):
                refer(["agents", key, "actions", i], a, "actions", "action")
        refer(["agents", key, "promptId"], agent.get("promptId"), "prompts", "prompt")
        refer(["agents", key, "vectorDatabase"], agent.get("vectorDatabase"), "vectorDatabases", "vector database")
        refer(["agents", key, "openaiAccountConnection"], agent.get("openaiAccountConnection"),
              "accountConnections", "account connection")
    for key, line in entries("lines"):
        refer(["lines", key, "agent"], line.get("agent"), "agents", "agent")
        if isinstance(line.get("link"), dict):
            refer(["lines", key, "link", "connection"], line["link"].get("connection"),
                  "accountConnections", "account connection")

    def same_as(section: str, field: str, what: str) -> None:
        first: typing.Dict[str, str] = {}
        for key, entry in entries(section):
            v = entry.get(field)
            if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                continue
            text = v if isinstance(v, str) else json.dumps(v)
            if text in first:
                problems.append(
                    f"{format_path(source, [section, key, field])}: the same {what} as "
                    f"{format_path(source, [section, first[text], field])}"
                )
            else:
                first[text] = key

    for s in SECTIONS:
        if s != "lines":
            same_as(s, "id", "object")
    same_as("lines", "number", "number")

    for s in SECTIONS:
        claimed: typing.Dict[str, str] = {}
        for key, entry in entries(s):
            was = entry.get("was")
            former = [was] if isinstance(was, str) else was if isinstance(was, list) else []
            for i, old in enumerate(former):
                if not isinstance(old, str):
                    continue
                at = format_path(source, [s, key, "was", i] if isinstance(was, list) else [s, key, "was"])
                if old in keys[s]:
                    problems.append(f'{at}: "{old}" is still a key of {s}; a former name must be free')
                elif old in claimed:
                    problems.append(f'{at}: "{old}" is also a former name of {format_path(source, [s, claimed[old]])}')
                else:
                    claimed[old] = key
    return problems


def check_fleet(value: typing.Any, source: str = "fleet") -> typing.List[str]:
    """Every problem of a fleet value (shape, unknown keys, references, duplicates), each naming its path; [] when valid."""
    coerced = _coerce(json.loads(json.dumps({} if value is None else value)))
    shape = [f"{format_path(source, p)}: {m}" for p, m, _ in _errors(coerced, SCHEMA, [])]
    problems = shape + _references(value, source)
    return list(dict.fromkeys(problems))


def parse_fleet(value: typing.Any, source: str = "fleet", file: typing.Optional[str] = None) -> dict:
    """The fleet with the schema's defaults applied (was as a list, numbers as strings), or a FleetConfigError."""
    problems = check_fleet(value, source)
    if problems:
        raise FleetConfigError(problems, source, *([file] if file else []))
    fleet = _coerce(json.loads(json.dumps({} if value is None else value)))
    for s in SECTIONS:
        for entry in (fleet.get(s) or {}).values():
            if isinstance(entry.get("was"), str):
                entry["was"] = [entry["was"]]
    return fleet


def fleet_from_config(key: str = "fleet") -> dict:
    """
    The fleet of this stack, from its config value `<project>:<key>`, checked (every problem at
    once, nothing sent). When any path of it was set with --secret, Pulumi marks the whole value
    secret, so every value of the fleet is stored as a secret (keys, which name resources, stay
    readable). Pass the result to Fleet: ``Fleet("fleet", **fleet_from_config())``.
    """
    config = pulumi.Config()
    full_key = f"{config.name}:{key}"
    file = f"Pulumi.{pulumi.get_stack()}.yaml"

    def refuse(problem: str) -> FleetConfigError:
        return FleetConfigError([f"{key}: {problem}"], key, file)

    # Read as text and parsed here: a parse error must not repeat the value, which may be a secret.
    raw = config.get(key)
    if raw is None:
        raise refuse(
            f"required: this stack's config has no `{full_key}`; declare the fleet there "
            "(voices, actions, webhooks, agents, lines)"
        )
    try:
        value = json.loads(raw)
    except ValueError:
        raise refuse("must be a mapping of voices, actions, webhooks, agents and lines, not a single value") from None
    return {"fleet": parse_fleet(value, key, file), "secret": _is_secret(full_key), "source": key}


def _is_secret(full_key: str) -> bool:
    """Whether Pulumi passed this config key as a secret; unknown counts as secret."""
    try:
        from pulumi.runtime.config import is_config_secret  # pylint: disable=import-outside-toplevel

        return bool(is_config_secret(full_key))
    except ImportError:
        return True


class Fleet(pulumi.ComponentResource):
    """
    The resources of a fleet (voices, actions, webhooks, prompts, vector databases, account
    connections, agents, lines), each named
    `<name>-<key>`; `was:` keeps a resource through a rename; bought numbers are protected unless
    `protect: false`. `ids` maps each section's keys to ids (`numbers`: the bought lines' numbers).
    """

    ids: pulumi.Output[dict]
    resources: typing.Dict[str, typing.Dict[str, pulumi.CustomResource]]
    purchases: typing.Dict[str, PurchasedNumber]

    def __init__(
        self,
        name: str,
        fleet: typing.Any,
        secret: bool = False,
        source: str = "fleet",
        opts: typing.Optional[pulumi.ResourceOptions] = None,
    ):
        # Checked before the component registers: a bad fleet sends nothing.
        spec = parse_fleet(fleet, source)
        super().__init__("voiceagent:fleet:Fleet", name, {}, opts)

        def val(v: typing.Any) -> typing.Any:
            return None if v is None else pulumi.Output.secret(v) if secret else v

        def child(was: typing.Optional[list], **extra: typing.Any) -> pulumi.ResourceOptions:
            aliases = [pulumi.Alias(name=f"{name}-{old}") for old in was or []]
            return pulumi.ResourceOptions(parent=self, aliases=aliases or None, **extra)

        def section(s: str) -> typing.Dict[str, dict]:
            return spec.get(s) or {}

        # Every field a voice entry sets, as the Voice's argument of the same name (snake_case); the
        # vendor's credentials always secret.
        def voice_args(v: dict) -> typing.Dict[str, typing.Any]:
            args = {}
            for field, value in v.items():
                if field in ("id", "was"):
                    continue
                arg = re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), field)
                args[arg] = pulumi.Output.secret(value) if field in ("apiKey", "apiUserId") else val(value)
            return args

        voices = {
            k: Voice(f"{name}-{k}", **voice_args(v), voice_id=val(v.get("id")), opts=child(v.get("was")))
            for k, v in section("voices").items()
        }
        actions = {
            k: Action(f"{name}-{k}", type=val(a.get("type")), config=val(a.get("config")),
                      action_id=val(a.get("id")), opts=child(a.get("was")))
            for k, a in section("actions").items()
        }
        webhooks = {
            k: Webhook(f"{name}-{k}", url=val(w["url"]), method=val(w.get("method")),
                       subscriptions=val(w["subscriptions"]), webhook_id=val(w.get("id")), opts=child(w.get("was")))
            for k, w in section("webhooks").items()
        }

        # A reference is a key of the fleet (that resource's id) or an existing object's UUID.
        def ref(declared: typing.Dict[str, pulumi.CustomResource], value: str) -> typing.Any:
            return declared[value].id if value in declared else val(value) if _UUID.match(value) else value

        # The current API's own objects. Credentials are always secret, whatever the fleet's value was.
        def secret_of(v: typing.Any) -> typing.Any:
            return None if v is None else pulumi.Output.secret(v)

        prompts = {
            k: Prompt(f"{name}-{k}", content=val(p.get("content")), collect_fields=val(p.get("collectFields")),
                      context_endpoint=val(p.get("contextEndpoint")), prompt_template=val(p.get("promptTemplate")),
                      prompt_id=val(p.get("id")), opts=child(p.get("was")))
            for k, p in section("prompts").items()
        }
        vector_databases = {
            # Required by the VectorDatabase: left out of the stack file, its check names it at preview.
            k: VectorDatabase(f"{name}-{k}", type=val(v.get("type")), index=val(v["index"]),
                              api_key=secret_of(v.get("apiKey")) or "", api_environment=val(v["apiEnvironment"]),
                              vector_database_id=val(v.get("id")), opts=child(v.get("was")))
            for k, v in section("vectorDatabases").items()
        }
        connections = {
            k: AccountConnection(f"{name}-{k}", type=val(c["type"]), openai_api_key=secret_of(c.get("openaiApiKey")),
                                 twilio_account_sid=val(c.get("twilioAccountSid")),
                                 twilio_auth_token=secret_of(c.get("twilioAuthToken")),
                                 steering_pool=val(c.get("steeringPool")),
                                 account_supports_any_caller_id=val(c.get("accountSupportsAnyCallerId")),
                                 account_connection_id=val(c.get("id")), opts=child(c.get("was")))
            for k, c in section("accountConnections").items()
        }
        # The agent's references to them: a key of the fleet, or an existing object's UUID.
        agent_refs = {"promptId": prompts, "vectorDatabase": vector_databases, "openaiAccountConnection": connections}

        agents = {
            k: Agent(f"{name}-{k}", prompt=val(a.get("prompt")), voice=ref(voices, a["voice"]),
                     initial_message=val(a.get("initialMessage")),
                     actions=[ref(actions, x) for x in a["actions"]] if "actions" in a else None,
                     webhook=ref(webhooks, a["webhook"]) if "webhook" in a else None,
                     agent_id=val(a.get("id")), opts=child(a.get("was")),
                     **{py: ref(agent_refs[key], a[key]) if key in agent_refs else val(a[key])
                        for key, py in _AGENT_CURRENT.items() if key in a})
            for k, a in section("agents").items()
        }
        purchases = {
            k: PurchasedNumber(f"{name}-{k}", area_code=val(line["buy"].get("areaCode")),
                               opts=child(line.get("was"), protect=line.get("protect", True)))
            for k, line in section("lines").items() if "buy" in line
        }
        # A linked line is a LinkedNumber, which sets its own agent: it has no PhoneNumber binding.
        def make_line(k: str, line: dict) -> pulumi.CustomResource:
            if "link" in line:
                return LinkedNumber(f"{name}-{k}", number=val(line["number"]),
                                    telephony_account_connection=ref(connections, line["link"]["connection"]),
                                    outbound_only=val(line["link"].get("outboundOnly")),
                                    # None for a number that only places calls, or is linked for later.
                                    inbound_agent=ref(agents, line["agent"]) if "agent" in line else None,
                                    opts=child(line.get("was")))
            return PhoneNumber(f"{name}-{k}",
                               number=purchases[k].number if k in purchases else val(line.get("number", "")),
                               inbound_agent=ref(agents, line["agent"]), opts=child(line.get("was")))

        lines = {k: make_line(k, line) for k, line in section("lines").items()}
        self.purchases = purchases
        self.resources = {"voices": voices, "actions": actions, "webhooks": webhooks, "prompts": prompts,
                          "vectorDatabases": vector_databases, "accountConnections": connections,
                          "agents": agents, "lines": lines}

        def ids(rs: typing.Dict[str, typing.Any]) -> pulumi.Output[dict]:
            return pulumi.Output.all(**rs) if rs else pulumi.Output.from_input({})

        self.ids = pulumi.Output.all(
            voices=ids({k: r.id for k, r in voices.items()}),
            actions=ids({k: r.id for k, r in actions.items()}),
            webhooks=ids({k: r.id for k, r in webhooks.items()}),
            prompts=ids({k: r.id for k, r in prompts.items()}),
            vectorDatabases=ids({k: r.id for k, r in vector_databases.items()}),
            accountConnections=ids({k: r.id for k, r in connections.items()}),
            agents=ids({k: r.id for k, r in agents.items()}),
            lines=ids({k: r.id for k, r in lines.items()}),
            numbers=ids({k: p.number for k, p in purchases.items()}),
        )
        self.register_outputs({"ids": self.ids})
