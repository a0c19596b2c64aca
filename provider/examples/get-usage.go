// The get-usage example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getUsage(ctx *pulumi.Context) error {
	// example begin
	ctx.Export("minutesThisMonth", voiceagent.GetUsageOutput(ctx).MonthlyUsageMinutes())
	// example end
	return nil
}
