// The account-connection example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func accountConnection(ctx *pulumi.Context, twilioAuthToken pulumi.StringOutput) error {
	// example begin
	twilio, err := voiceagent.NewAccountConnection(ctx, "twilio", &voiceagent.AccountConnectionArgs{
		Type:             voiceagent.AccountConnectionTypeConnectionTwilio,
		TwilioAccountSid: pulumi.String("AC0123456789abcdef0123456789abcdef"),
		TwilioAuthToken:  twilioAuthToken,
		SteeringPool:     pulumi.StringArray{pulumi.String("+15550010001")},
	})
	// example end
	_ = twilio
	return err
}
