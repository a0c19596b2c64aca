// The get-account-connection example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getAccountConnection(ctx *pulumi.Context, accountConnectionId string) error {
	// example begin
	twilio := voiceagent.LookupAccountConnectionOutput(ctx, voiceagent.LookupAccountConnectionOutputArgs{Id: pulumi.String(accountConnectionId)})
	// example end
	_ = twilio
	return nil
}
