// The prompt example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func prompt(ctx *pulumi.Context) error {
	// example begin
	booking, err := voiceagent.NewPrompt(ctx, "booking", &voiceagent.PromptArgs{
		Content: pulumi.String("You book visits for the clinic. Ask for the caller's email."),
		CollectFields: voiceagent.PromptCollectFieldsArray{
			&voiceagent.PromptCollectFieldsArgs{Name: pulumi.String("email"), Label: pulumi.String("Email address")},
		},
	})
	// example end
	_ = booking
	return err
}
