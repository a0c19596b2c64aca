// The get-phone-numbers example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getPhoneNumbers(ctx *pulumi.Context) error {
	// example begin
	free, err := voiceagent.GetPhoneNumbers(ctx, &voiceagent.GetPhoneNumbersArgs{Active: pulumi.BoolRef(true), Bound: pulumi.BoolRef(false)})
	// example end
	_ = free
	return err
}
