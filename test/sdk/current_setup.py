

def current_setup(config: pulumi.Config) -> None:
    """The current API's production setup (docs/current-kinds.md, docs/current-fields.md).

    Nested inputs as a Python user writes them: plain dicts with snake_case keys, and the Args classes.
    """
    voice = config.require("currentVoice")
    booking = voiceagent.Prompt(
        "booking",
        content="You book visits for the clinic. Ask for the caller's email.",
        collect_fields=[{"name": "email", "label": "Email address", "field_type": "field_type_email"}],
    )
    intake = voiceagent.Prompt(
        "intake",
        content="You take the patient's details.",
        collect_fields=[voiceagent.PromptCollectFieldsArgs(name="phone", label="Phone number", description="A number to call back")],
    )
    faq = voiceagent.VectorDatabase(
        "faq", index="clinic-faq", api_key=pulumi.Output.secret("pc-test-key"), api_environment="us-east-1-aws"
    )
    openai = voiceagent.AccountConnection(
        "openai", type=voiceagent.AccountConnectionType.CONNECTION_OPENAI, openai_api_key=pulumi.Output.secret("sk-test")
    )
    fallback = {"provider": "azure", "model_name": "gpt-4o-mini"}
    if config.get_bool("misspelt"):
        fallback = {"provider": "azure", "modl_name": "gpt-4o-mini"}
    recepcion = voiceagent.Agent(
        "recepcion",
        prompt_id=booking.id,
        voice=voice,
        name="Recepción",
        language="es",
        interrupt_sensitivity="high",
        endpointing_sensitivity="relaxed",
        ivr_navigation_mode="off",
        conversation_speed=1.1,
        initial_message_delay=0.5,
        idle_time_seconds=20,
        ask_if_human_present_on_idle=True,
        noise_suppression=True,
        run_do_not_call_detection=True,
        context_endpoint="https://ctx.example.com/recepcion",
        llm_temperature=0.3,
        openai_model_name_override="gpt-4o",
        llm_fallback=fallback,
        deepgram_keywords={"cita": 2, "receta_medica": 1.5},
        vector_database=faq.id,
        openai_account_connection=openai.id,
    )
    guardia = voiceagent.Agent(
        "guardia",
        prompt_id=intake.id,
        voice=voice,
        name="Guardia",
        llm_fallback=voiceagent.AgentLlmFallbackArgs(provider=voiceagent.LlmFallbackProvider.OPENAI, model_name="gpt-4.1"),
    )
    # The team's API the agent calls (its signature secret a plain string: the provider keeps it
    # secret), a transfer set off by a phrase, a hold (issue 50): the Args classes and the enums,
    # and a plain dict.
    lookup = voiceagent.Action(
        "lookup",
        type=voiceagent.ActionType.EXTERNAL,
        signature_secret="sig-setup-secret-4e8b1d27",
        config=voiceagent.ActionConfigArgs(
            name="lookup_patient",
            description="Finds a patient by date of birth.",
            url="https://api.clinic.example/patients",
            input_schema={
                "type": "object",
                "properties": {
                    "date_of_birth": {"type": "string"},
                    "name": {"type": "object", "properties": {"last": {"type": "string"}}},
                },
            },
            speak_on_send=True,
            speak_on_receive=False,
        ),
    )
    transfer = voiceagent.Action(
        "transfer",
        type=voiceagent.ActionType.TRANSFER_CALL,
        config=voiceagent.ActionConfigArgs(phone_number="+15550100700"),
        action_trigger=voiceagent.ActionActionTriggerArgs(
            type=voiceagent.ActionTriggerType.TRIGGER_PHRASE_BASED,
            phrase_triggers=[
                voiceagent.ActionActionTriggerPhraseTriggersArgs(
                    phrase="talk to a human", conditions=[voiceagent.PhraseCondition.CONDITION_TYPE_CONTAINS]
                )
            ],
        ),
    )
    hold = voiceagent.Action(
        "hold",
        type=voiceagent.ActionType.SET_HOLD,
        action_trigger={"type": "action_trigger_phrase_based", "phrase_triggers": [{"phrase": "please hold"}]},
    )
    pulumi.export("lookupId", lookup.id)
    pulumi.export("transferId", transfer.id)
    pulumi.export("holdId", hold.id)
    pulumi.export("recepcionId", recepcion.id)
    pulumi.export("guardiaId", guardia.id)
    pulumi.export("bookingId", booking.id)
    pulumi.export("intakeId", intake.id)
    # The deployed value, as the SDK's output type.
    pulumi.export("fallbackModel", recepcion.llm_fallback.apply(lambda f: f.model_name if f else None))
