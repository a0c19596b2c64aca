// The phone-number example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func phoneNumber(ctx *pulumi.Context, support *voiceagent.Agent) error {
	// example begin
	_, err := voiceagent.NewPhoneNumber(ctx, "main-line", &voiceagent.PhoneNumberArgs{
		Number:       pulumi.String("+15550010001"),
		InboundAgent: support.ID(),
	})
	// example end
	return err
}
