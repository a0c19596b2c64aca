// The get-voices example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getVoices(ctx *pulumi.Context) error {
	// example begin
	azure, err := voiceagent.GetVoices(ctx, &voiceagent.GetVoicesArgs{Type: pulumi.StringRef("voice_azure")})
	// example end
	_ = azure
	return err
}
