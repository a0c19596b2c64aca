// The voice example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func voice(ctx *pulumi.Context) error {
	// example begin
	voice, err := voiceagent.NewVoice(ctx, "warm", &voiceagent.VoiceArgs{
		VoiceName: pulumi.String("alloy"),
		Pitch:     pulumi.Int(0),
		Rate:      pulumi.Int(1),
	})
	// example end
	_ = voice
	return err
}
