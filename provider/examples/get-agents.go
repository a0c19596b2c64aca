// The get-agents example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getAgents(ctx *pulumi.Context, alloy *voiceagent.LookupVoiceResult) error {
	// example begin
	speaking := voiceagent.GetAgentsOutput(ctx, voiceagent.GetAgentsOutputArgs{Voice: pulumi.String(alloy.Id)})
	// example end
	_ = speaking
	return nil
}
