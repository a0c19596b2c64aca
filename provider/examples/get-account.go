// The get-account example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getAccount(ctx *pulumi.Context) error {
	// example begin
	ctx.Export("owner", voiceagent.GetAccountOutput(ctx).UserId())
	// example end
	return nil
}
