// The get-voice example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getVoice(ctx *pulumi.Context) error {
	// example begin
	alloy, err := voiceagent.LookupVoice(ctx, &voiceagent.LookupVoiceArgs{VoiceName: pulumi.StringRef("alloy")})
	// example end
	_ = alloy
	return err
}
