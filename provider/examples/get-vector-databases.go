// The get-vector-databases example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getVectorDatabases(ctx *pulumi.Context) error {
	// example begin
	all := voiceagent.GetVectorDatabasesOutput(ctx)
	// example end
	ctx.Export("count", all)
	return nil
}
