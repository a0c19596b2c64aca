// The get-actions example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getActions(ctx *pulumi.Context) error {
	// example begin
	hangUps, err := voiceagent.GetActions(ctx, &voiceagent.GetActionsArgs{Type: pulumi.StringRef("action_end_conversation")})
	// example end
	_ = hangUps
	return err
}
