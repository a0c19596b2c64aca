// The get-account-connections example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getAccountConnections(ctx *pulumi.Context) error {
	// example begin
	twilio := voiceagent.GetAccountConnectionsOutput(ctx, voiceagent.GetAccountConnectionsOutputArgs{Type: pulumi.String("account_connection_twilio")})
	// example end
	_ = twilio
	return nil
}
