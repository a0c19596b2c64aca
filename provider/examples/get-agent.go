// The get-agent example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getAgent(ctx *pulumi.Context, agentId string) error {
	// example begin
	existing := voiceagent.LookupAgentOutput(ctx, voiceagent.LookupAgentOutputArgs{Id: pulumi.String(agentId)})
	// example end
	_ = existing
	return nil
}
