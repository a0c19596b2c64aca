// The agent example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func agent(ctx *pulumi.Context, voice *voiceagent.Voice) error {
	// example begin
	agent, err := voiceagent.NewAgent(ctx, "support", &voiceagent.AgentArgs{
		Prompt: pulumi.String("You answer support calls."),
		Voice:  voice.ID(),
	})
	// example end
	_ = agent
	return err
}
