// The get-webhooks example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getWebhooks(ctx *pulumi.Context) error {
	// example begin
	ended := voiceagent.GetWebhooksOutput(ctx, voiceagent.GetWebhooksOutputArgs{Event: pulumi.String("event_phone_call_ended")})
	// example end
	_ = ended
	return nil
}
