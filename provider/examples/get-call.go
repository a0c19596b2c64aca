// The get-call example (the schema's and the Go SDK's): the lines between the markers; the rest lets it compile.
package examples

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func getCall(ctx *pulumi.Context, callId string) error {
	// example begin
	call := voiceagent.LookupCallOutput(ctx, voiceagent.LookupCallOutputArgs{Id: pulumi.String(callId)})
	ctx.Export("callStatus", call.Status())
	// example end
	return nil
}
