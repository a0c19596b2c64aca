// The get-vector-database example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getVectorDatabase(ctx *pulumi.Context) error {
	// example begin
	faq := voiceagent.LookupVectorDatabaseOutput(ctx, voiceagent.LookupVectorDatabaseOutputArgs{Index: pulumi.String("clinic-faq")})
	// example end
	_ = faq
	return nil
}
