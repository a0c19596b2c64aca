// The call example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func call(ctx *pulumi.Context, agent *voiceagent.Agent) error {
	// example begin
	_, err := voiceagent.NewCall(ctx, "smoke-call", &voiceagent.CallArgs{
		FromNumber:          pulumi.String("+15550010001"),
		ToNumber:            pulumi.String("+15557654321"),
		Agent:               agent.ID(),
		AllowedDestinations: pulumi.StringArray{pulumi.String("+1555*")},
	})
	// example end
	return err
}
