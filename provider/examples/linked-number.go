// The linked-number example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func linkedNumber(ctx *pulumi.Context, support *voiceagent.Agent, twilioConnectionId string) error {
	// example begin
	_, err := voiceagent.NewLinkedNumber(ctx, "own-line", &voiceagent.LinkedNumberArgs{
		Number:                     pulumi.String("+15550020002"),
		TelephonyAccountConnection: pulumi.String(twilioConnectionId),
		InboundAgent:               support.ID(),
	})
	// example end
	return err
}
