// The get-prompt example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getPrompt(ctx *pulumi.Context, promptId string) error {
	// example begin
	booking := voiceagent.LookupPromptOutput(ctx, voiceagent.LookupPromptOutputArgs{Id: pulumi.String(promptId)})
	// example end
	_ = booking
	return nil
}
