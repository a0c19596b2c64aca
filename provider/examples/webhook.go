// The webhook example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func webhook(ctx *pulumi.Context) error {
	// example begin
	hook, err := voiceagent.NewWebhook(ctx, "events", &voiceagent.WebhookArgs{
		Url:           pulumi.String("https://hooks.example.com/va"),
		Subscriptions: voiceagent.WebhookEventArray{voiceagent.WebhookEventMessage},
	})
	// example end
	_ = hook
	return err
}
