"""Drives every route of the service's own published client, vocode-api 0.0.48, against the emulator.

Run once by test/emulator/vocode-sdk.test.ts: argv is the base URL, the token and a JSON object of
seeded ids. Each call is one step; each prints one JSON line {"step", "ok", "error"?, "got"?}, where
"got" holds what the test checks of the parsed answer. A step that raises is reported and the run
goes on, so one broken route never hides the others.
"""

import json
import sys
import traceback

from vocode import (
    AddToSteeringPoolBody,
    CollectField,
    ElevenLabsVoiceParams,
    ElevenLabsVoiceUpdateParams,
    EndConversationActionParams,
    EndConversationActionUpdateParams,
    InternalLlmFallback,
    OpenAiAccountConnectionParams,
    OpenAiAccountConnectionUpdateParams,
    OpenAiCredentials,
    PromptParams,
    RimeVoiceParams,
    RimeVoiceUpdateParams,
    TwilioAccountConnectionParams,
    TwilioCredentials,
)
from vocode.client import Vocode
from vocode.core.api_error import ApiError

base_url, token, seeds_json = sys.argv[1], sys.argv[2], sys.argv[3]
seeds = json.loads(seeds_json)
client = Vocode(base_url=base_url, token=token, timeout=10)
state = {}


def step(name, fn):
    try:
        got = fn()
        print(json.dumps({"step": name, "ok": True, "got": got}), flush=True)
    except Exception as e:  # noqa: BLE001 - every failure is a result to report
        detail = getattr(e, "body", None)
        print(
            json.dumps(
                {
                    "step": name,
                    "ok": False,
                    "error": f"{type(e).__name__}: {e}"[:2000],
                    "detail": detail if isinstance(detail, (dict, list, str)) else None,
                    "trace": traceback.format_exc()[-1500:],
                }
            ),
            flush=True,
        )


def ids(page):
    return [item.id for item in page.items]


# Voices: a type with its tuning fields, read back, listed, updated.
def voice_create():
    v = client.voices.create_voice(request=RimeVoiceParams(speaker="river", speed_alpha=1.2, model_id="mist"))
    state["voice"] = v.id
    return {"type": v.type, "speed_alpha": v.speed_alpha, "model_id": v.model_id}


step("voices.create", voice_create)
step("voices.get", lambda: {"speaker": client.voices.get_voice(id=state["voice"]).speaker})
step("voices.list", lambda: {"has": state["voice"] in ids(client.voices.list_voices(page=1, size=100))})


def voice_update():
    v = client.voices.update_voice(
        id=state["voice"], request=ElevenLabsVoiceUpdateParams(voice_id="rachel", stability=0.4)
    )
    return {"type": v.type, "voice_id": v.voice_id, "stability": v.stability}


step("voices.update", voice_update)


def voice_update_partial():
    # 0.0.48's update params leave every field optional: a field left out stays.
    v = client.voices.update_voice(id=state["voice"], request=ElevenLabsVoiceUpdateParams(similarity_boost=0.9))
    return {"voice_id": v.voice_id, "stability": v.stability, "similarity_boost": v.similarity_boost}


def voice_retype_incomplete():
    # Another type without its required field: refused, naming it.
    try:
        client.voices.update_voice(id=state["voice"], request=RimeVoiceUpdateParams(speed_alpha=1.0))
    except ApiError as e:
        return {"status": e.status_code, "loc": [str(p) for p in e.body.detail[0].loc]}
    return {"status": 200}


step("voices.update.partial", voice_update_partial)
step("voices.update.retype_incomplete", voice_retype_incomplete)


def voice_eleven_labs():
    v = client.voices.create_voice(
        request=ElevenLabsVoiceParams(voice_id="rachel", similarity_boost=0.7, optimize_streaming_latency=2)
    )
    return {"similarity_boost": v.similarity_boost, "optimize_streaming_latency": v.optimize_streaming_latency}


step("voices.create.eleven_labs", voice_eleven_labs)


# Actions and webhooks.
def action_create():
    a = client.actions.create_action(request=EndConversationActionParams())
    state["action"] = a.id
    return {"type": a.type}


step("actions.create", action_create)
step("actions.get", lambda: {"type": client.actions.get_action(id=state["action"]).type})
step("actions.list", lambda: {"has": state["action"] in ids(client.actions.list_actions(page=1, size=100))})
step(
    "actions.update",
    lambda: {"type": client.actions.update_action(id=state["action"], request=EndConversationActionUpdateParams()).type},
)


def webhook_create():
    w = client.webhooks.create_webhook(
        subscriptions=["event_message"], url="https://hooks.example.com/a", method="POST"
    )
    state["webhook"] = w.id
    return {"url": w.url}


step("webhooks.create", webhook_create)
step("webhooks.get", lambda: {"url": client.webhooks.get_webhook(id=state["webhook"]).url})
step("webhooks.list", lambda: {"has": state["webhook"] in ids(client.webhooks.list_webhooks(page=1, size=100))})
step(
    "webhooks.update",
    lambda: {"url": client.webhooks.update_webhook(id=state["webhook"], url="https://hooks.example.com/b").url},
)


# Prompts.
def prompt_create():
    p = client.prompts.create_prompt(
        content="Eres una recepcionista.",
        collect_fields=[CollectField(label="Email", name="email", description="the caller's email")],
        context_endpoint="https://ctx.example.com/prompt",
    )
    state["prompt"] = p.id
    return {"content": p.content, "fields": [f.name for f in p.collect_fields or []]}


step("prompts.create", prompt_create)
step("prompts.get", lambda: {"context_endpoint": client.prompts.get_prompt(id=state["prompt"]).context_endpoint})
step("prompts.list", lambda: {"has": state["prompt"] in ids(client.prompts.list_prompts(page=1, size=100))})
step(
    "prompts.update",
    lambda: {"content": client.prompts.update_prompt(id=state["prompt"], content="Eres amable.").content},
)


# Account connections: OpenAI and Twilio.
def openai_create():
    c = client.account_connections.create_account_connection(
        request=OpenAiAccountConnectionParams(credentials=OpenAiCredentials(openai_api_key=seeds["openaiKey"]))
    )
    state["openai"] = c.id
    return {"type": c.type}


def twilio_create():
    c = client.account_connections.create_account_connection(
        request=TwilioAccountConnectionParams(
            credentials=TwilioCredentials(twilio_account_sid="AC123", twilio_auth_token=seeds["twilioToken"]),
            account_supports_any_caller_id=True,
        )
    )
    state["twilio"] = c.id
    return {"type": c.type, "steering_pool": c.steering_pool, "any_caller_id": c.account_supports_any_caller_id}


step("account_connections.create.openai", openai_create)
step("account_connections.create.twilio", twilio_create)
step(
    "account_connections.get",
    lambda: {"sid": client.account_connections.get_account_connection(id=state["twilio"]).credentials.twilio_account_sid},
)
step(
    "account_connections.list",
    lambda: {
        "has": sorted(
            i for i in ids(client.account_connections.list_account_connections(page=1, size=100))
            if i in (state["openai"], state["twilio"])
        )
        == sorted([state["openai"], state["twilio"]])
    },
)
step(
    "account_connections.update",
    lambda: {
        "type": client.account_connections.update_account_connection(
            id=state["openai"],
            request=OpenAiAccountConnectionUpdateParams(credentials=OpenAiCredentials(openai_api_key=seeds["openaiKey2"])),
        ).type
    },
)


# Vector databases.
def vdb_create():
    v = client.vector_databases.create_vector_database(index="faq", api_key=seeds["pineconeKey"], api_environment="us-east-1")
    state["vdb"] = v.id
    return {"index": v.index}


step("vector_databases.create", vdb_create)
step("vector_databases.get", lambda: {"env": client.vector_databases.get_vector_database(id=state["vdb"]).api_environment})
step(
    "vector_databases.list",
    lambda: {"has": state["vdb"] in ids(client.vector_databases.list_vector_databases(page=1, size=100))},
)
step(
    "vector_databases.update",
    lambda: {"index": client.vector_databases.update_vector_database(id=state["vdb"], index="faq-2").index},
)


# Agents: every field the current API has.
def agent_create():
    a = client.agents.create_agent(
        name="Recepción",
        prompt=state["prompt"],
        language="es",
        actions=[state["action"]],
        voice=state["voice"],
        initial_message="Hola",
        webhook=state["webhook"],
        vector_database=state["vdb"],
        interrupt_sensitivity="high",
        context_endpoint="https://ctx.example.com/agent",
        noise_suppression=True,
        endpointing_sensitivity="relaxed",
        ivr_navigation_mode="off",
        conversation_speed=1.1,
        initial_message_delay=0.5,
        openai_model_name_override="gpt-4o",
        ask_if_human_present_on_idle=True,
        openai_account_connection=state["openai"],
        run_do_not_call_detection=True,
        llm_fallback=InternalLlmFallback(provider="azure", model_name="gpt-4o-mini"),
        deepgram_keywords={"cita": 2},
        idle_time_seconds=20,
        llm_temperature=0.3,
    )
    state["agent"] = a.id
    return {
        "language": a.language,
        "prompt_id": a.prompt.id,
        "prompt_content": a.prompt.content,
        "vector_database": a.vector_database.id if a.vector_database else None,
        "openai_account_connection": a.openai_account_connection.id if a.openai_account_connection else None,
        "llm_fallback": a.llm_fallback.provider if a.llm_fallback else None,
        "llm_temperature": a.llm_temperature,
        "idle_time_seconds": a.idle_time_seconds,
    }


step("agents.create", agent_create)
step("agents.get", lambda: {"name": client.agents.get_agent(id=state["agent"]).name})
step(
    "agents.list",
    lambda: {
        "prompt": next(a.prompt for a in client.agents.list_agents(page=1, size=100).items if a.id == state["agent"])
    },
)
step(
    "agents.update",
    lambda: (
        lambda a: {"language": a.language, "interrupt_sensitivity": a.interrupt_sensitivity, "name": a.name}
    )(client.agents.update_agent(id=state["agent"], language="fr", interrupt_sensitivity="low")),
)


# Numbers: bought, linked from the team's own Twilio account, bound, cancelled.
def number_buy():
    n = client.numbers.buy_number(area_code="415", inbound_agent=state["agent"])
    state["bought"] = n.number
    return {"active": n.active, "agent": n.inbound_agent.id if n.inbound_agent else None}


def number_link():
    n = client.numbers.link_number(
        phone_number=seeds["linkNumber"],
        telephony_account_connection=state["twilio"],
        outbound_only=False,
        inbound_agent=state["agent"],
    )
    return {
        "number": n.number,
        "provider": n.telephony_provider,
        "connection": n.telephony_account_connection.id if n.telephony_account_connection else None,
    }


step("numbers.buy", number_buy)
step("numbers.link", number_link)
step("numbers.get", lambda: {"number": client.numbers.get_number(phone_number=seeds["linkNumber"]).number})
step(
    "numbers.list",
    lambda: {
        "has": seeds["linkNumber"] in [n.number for n in client.numbers.list_numbers(page=1, size=100).items]
    },
)
step(
    "numbers.update",
    lambda: (lambda n: {"label": n.label, "outbound_only": n.outbound_only})(
        client.numbers.update_number(phone_number=seeds["linkNumber"], label="front desk", outbound_only=True)
    ),
)


# Steering pool of the Twilio connection.
def pool_add():
    client.account_connections.add_to_steering_pool(
        id=state["twilio"], request=AddToSteeringPoolBody(phone_number=seeds["linkNumber"])
    )
    return {"pool": client.account_connections.get_account_connection(id=state["twilio"]).steering_pool}


def pool_remove():
    client.account_connections.remove_from_steering_pool(id=state["twilio"], phone_number=seeds["linkNumber"])
    return {"pool": client.account_connections.get_account_connection(id=state["twilio"]).steering_pool}


step("account_connections.add_to_steering_pool", pool_add)
step("account_connections.remove_from_steering_pool", pool_remove)


# Calls, placed from the linked number.
def call_create():
    c = client.calls.create_call(
        from_number=seeds["linkNumber"],
        to_number="+15550001111",
        agent=state["agent"],
        on_no_human_answer="hangup",
        hipaa_compliant=False,
        context={"customer": "Ana"},
    )
    state["call"] = c.id
    return {
        "telephony_provider": c.telephony_provider,
        "agent_phone_number": c.agent_phone_number,
        "on_no_human_answer": c.on_no_human_answer,
        "connection": c.telephony_account_connection.id if c.telephony_account_connection else None,
    }


step("calls.create", call_create)
step("calls.get", lambda: {"status": client.calls.get_call(id=state["call"]).status})
step(
    "calls.list",
    lambda: {"has": state["call"] in ids(client.calls.list_calls(page=1, size=100))},
)
step("calls.end", lambda: {"status": client.calls.end_call(id=state["call"]).status})
step("numbers.cancel", lambda: {"active": client.numbers.cancel_number(phone_number=state["bought"]).active})
step(
    "usage.get",
    lambda: (lambda u: {"plan_type": u.plan_type, "minutes": u.monthly_usage_minutes})(client.usage.get_usage()),
)
