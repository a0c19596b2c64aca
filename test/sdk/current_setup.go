// The current API's production setup (docs/current-kinds.md, docs/current-fields.md) as a Go
// program declares it: nested inputs as the SDK's typed structs. Copied into the Go example's
// project by test/sdk/go.test.ts (this folder has no go.mod: nothing builds it here).
package main

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func currentSetup(ctx *pulumi.Context, cfg *config.Config) error {
	voice := pulumi.String(cfg.Require("currentVoice"))
	booking, err := voiceagent.NewPrompt(ctx, "booking", &voiceagent.PromptArgs{
		Content: pulumi.String("You book visits for the clinic. Ask for the caller's email."),
		CollectFields: voiceagent.PromptCollectFieldsArray{
			&voiceagent.PromptCollectFieldsArgs{
				Name:      pulumi.String("email"),
				Label:     pulumi.String("Email address"),
				FieldType: pulumi.String("field_type_email"),
			},
		},
	})
	if err != nil {
		return err
	}
	intake, err := voiceagent.NewPrompt(ctx, "intake", &voiceagent.PromptArgs{
		Content: pulumi.String("You take the patient's details."),
		CollectFields: voiceagent.PromptCollectFieldsArray{
			&voiceagent.PromptCollectFieldsArgs{
				Name:        pulumi.String("phone"),
				Label:       pulumi.String("Phone number"),
				Description: pulumi.String("A number to call back"),
			},
		},
	})
	if err != nil {
		return err
	}
	faq, err := voiceagent.NewVectorDatabase(ctx, "faq", &voiceagent.VectorDatabaseArgs{
		Index:          pulumi.String("clinic-faq"),
		ApiKey:         pulumi.ToSecret(pulumi.String("pc-test-key")).(pulumi.StringOutput),
		ApiEnvironment: pulumi.String("us-east-1-aws"),
	})
	if err != nil {
		return err
	}
	openai, err := voiceagent.NewAccountConnection(ctx, "openai", &voiceagent.AccountConnectionArgs{
		Type:         voiceagent.AccountConnectionTypeConnectionOpenai,
		OpenaiApiKey: pulumi.ToSecret(pulumi.String("sk-test")).(pulumi.StringOutput),
	})
	if err != nil {
		return err
	}
	recepcion, err := voiceagent.NewAgent(ctx, "recepcion", &voiceagent.AgentArgs{
		PromptId:                booking.ID(),
		Voice:                   voice,
		Name:                    pulumi.String("Recepción"),
		Language:                voiceagent.LanguageEs,
		InterruptSensitivity:    voiceagent.InterruptSensitivityHigh,
		EndpointingSensitivity:  voiceagent.EndpointingSensitivityRelaxed,
		IvrNavigationMode:       voiceagent.IvrNavigationModeOff,
		ConversationSpeed:       pulumi.Float64(1.1),
		InitialMessageDelay:     pulumi.Float64(0.5),
		IdleTimeSeconds:         pulumi.Int(20),
		AskIfHumanPresentOnIdle: pulumi.Bool(true),
		NoiseSuppression:        pulumi.Bool(true),
		RunDoNotCallDetection:   pulumi.Bool(true),
		ContextEndpoint:         pulumi.String("https://ctx.example.com/recepcion"),
		LlmTemperature:          pulumi.Float64(0.3),
		OpenaiModelNameOverride: pulumi.String("gpt-4o"),
		LlmFallback: &voiceagent.AgentLlmFallbackArgs{
			Provider:  voiceagent.LlmFallbackProviderAzure,
			ModelName: pulumi.String("gpt-4o-mini"),
		},
		DeepgramKeywords:        pulumi.Float64Map{"cita": pulumi.Float64(2), "receta_medica": pulumi.Float64(1.5)},
		VectorDatabase:          faq.ID(),
		OpenaiAccountConnection: openai.ID(),
	})
	if err != nil {
		return err
	}
	guardia, err := voiceagent.NewAgent(ctx, "guardia", &voiceagent.AgentArgs{
		PromptId: intake.ID(),
		Voice:    voice,
		Name:     pulumi.String("Guardia"),
		LlmFallback: &voiceagent.AgentLlmFallbackArgs{
			Provider:  voiceagent.LlmFallbackProviderOpenai,
			ModelName: pulumi.String("gpt-4.1"),
		},
	})
	if err != nil {
		return err
	}
	ctx.Export("recepcionId", recepcion.ID())
	ctx.Export("guardiaId", guardia.ID())
	ctx.Export("bookingId", booking.ID())
	ctx.Export("intakeId", intake.ID())
	// The deployed value, as the SDK's output type.
	ctx.Export("fallbackModel", recepcion.LlmFallback.ModelName())
	return nil
}
