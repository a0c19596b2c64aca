// The get-phone-number example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getPhoneNumber(ctx *pulumi.Context) error {
	// example begin
	line, err := voiceagent.LookupPhoneNumber(ctx, &voiceagent.LookupPhoneNumberArgs{Number: "+15550010001"})
	// example end
	_ = line
	return err
}
