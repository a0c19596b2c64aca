// The purchased-number example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func purchasedNumber(ctx *pulumi.Context, support *voiceagent.Agent) error {
	// example begin
	main, err := voiceagent.NewPurchasedNumber(ctx, "main", &voiceagent.PurchasedNumberArgs{
		AreaCode: pulumi.String("415"),
	}, pulumi.Protect(true))
	if err != nil {
		return err
	}
	_, err = voiceagent.NewPhoneNumber(ctx, "main-line", &voiceagent.PhoneNumberArgs{
		Number:       main.Number,
		InboundAgent: support.ID(),
	})
	// example end
	return err
}
