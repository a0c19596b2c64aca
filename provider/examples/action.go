// The action example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func action(ctx *pulumi.Context) error {
	// example begin
	hangUp, err := voiceagent.NewAction(ctx, "end-call", &voiceagent.ActionArgs{
		Type: voiceagent.ActionTypeEndConversation,
	})
	// example end
	_ = hangUp
	return err
}
