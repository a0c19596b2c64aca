// The get-prompts example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getPrompts(ctx *pulumi.Context) error {
	// example begin
	all := voiceagent.GetPromptsOutput(ctx)
	// example end
	ctx.Export("count", all)
	return nil
}
