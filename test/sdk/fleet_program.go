// A Go program's Fleet as docs/fleet.md shows it: the stack config's `fleet` object read into the
// SDK's FleetSpec and given to the generated Fleet, which the plugin serves. Copied into the Go
// example's project by test/sdk/go.test.ts (this folder has no go.mod: nothing builds it here).
package main

import (
	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func fleetProgram(ctx *pulumi.Context) error {
	var doc voiceagent.FleetSpec
	value := config.RequireSecretObject(ctx, "fleet", &doc)
	fleet, err := voiceagent.NewFleet(ctx, "fleet", &voiceagent.FleetArgs{
		Fleet: value.ApplyT(func(interface{}) voiceagent.FleetSpec { return doc }).(voiceagent.FleetSpecOutput),
	})
	if err != nil {
		return err
	}
	ctx.Export("ids", fleet.Ids)
	return nil
}
