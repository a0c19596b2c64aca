// The vector-database example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func vectorDatabase(ctx *pulumi.Context, pineconeApiKey pulumi.StringOutput) error {
	// example begin
	faq, err := voiceagent.NewVectorDatabase(ctx, "faq", &voiceagent.VectorDatabaseArgs{
		Index:          pulumi.String("clinic-faq"),
		ApiKey:         pineconeApiKey,
		ApiEnvironment: pulumi.String("us-east-1-aws"),
	})
	// example end
	_ = faq
	return err
}
