// An agent speaking with the voice named "alloy", bound to the account's first free number, on
// the native voiceagent provider.
//
// Run it either way:
//
//	pulumi up                     # through a Go language host (upstream's, or this repository's)
//	go run . up [-stack dev]      # any pulumi CLI on PATH: the Automation API runs it inline
//
// The second form also takes preview [-refresh], refresh and destroy, and -summary to end with
// one JSON line of the change counts and outputs (secrets masked).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// prompt is the agent's instructions unless the stack sets `pulumi config set --secret prompt ...`.
const prompt = "You are a friendly receptionist. Take a message and end the call politely."

// program is the stack: what `pulumi up` makes the service match.
func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	// Secret either way: stored encrypted in state, and the plugin never logs it.
	instructions := pulumi.ToSecret(pulumi.String(prompt)).(pulumi.StringOutput)
	if set, err := cfg.TrySecret("prompt"); err == nil {
		instructions = set
	}
	// Lookups run in preview too and only read: the voice called "alloy" (exactly one must exist).
	voiceName := cfg.Get("voiceName")
	if voiceName == "" {
		voiceName = "alloy"
	}
	voice := voiceagent.LookupVoiceOutput(ctx, voiceagent.LookupVoiceOutputArgs{VoiceName: pulumi.String(voiceName)})
	agent, err := voiceagent.NewAgent(ctx, "receptionist", &voiceagent.AgentArgs{
		Prompt:         instructions,
		InitialMessage: pulumi.String("Hello, you've reached the front desk."),
		Voice:          voice.Id(),
	})
	if err != nil {
		return err
	}
	number := pulumi.String(cfg.Get("number")).ToStringOutput()
	var lineOpts []pulumi.ResourceOption
	if cfg.Get("number") == "" {
		// The account's first free number, picked once: IgnoreChanges keeps the one bound by the
		// first `up` (after it, that number is no longer free and the lookup answers the next one).
		free := voiceagent.GetPhoneNumbersOutput(ctx, voiceagent.GetPhoneNumbersOutputArgs{Active: pulumi.Bool(true), Bound: pulumi.Bool(false)})
		number = free.Numbers().ApplyT(func(numbers []voiceagent.FoundNumber) (string, error) {
			if len(numbers) == 0 {
				return "", errors.New("GetPhoneNumbers found no free active number on this account: buy one, or set `number`")
			}
			return numbers[0].Number, nil
		}).(pulumi.StringOutput)
		lineOpts = append(lineOpts, pulumi.IgnoreChanges([]string{"number"}))
	}
	line, err := voiceagent.NewPhoneNumber(ctx, "front-desk", &voiceagent.PhoneNumberArgs{
		Number:       number,
		InboundAgent: agent.ID(),
	}, lineOpts...)
	if err != nil {
		return err
	}
	ctx.Export("agentId", agent.ID())
	ctx.Export("number", line.Number)
	if callID := cfg.Get("callId"); callID != "" {
		// Secret as a whole: a call's transcript and error message are secret.
		ctx.Export("callStatus", voiceagent.LookupCallOutput(ctx, voiceagent.LookupCallOutputArgs{Id: pulumi.String(callID)}).Status())
	}
	if existing := cfg.Get("existingAgent"); existing != "" {
		// An agent made elsewhere, read into the stack (never changed or deleted by it); its prompt
		// is kept secret in the state.
		found, err := voiceagent.GetAgent(ctx, "existing", pulumi.ID(existing), nil, pulumi.AdditionalSecretOutputs([]string{"prompt"}))
		if err != nil {
			return err
		}
		ctx.Export("existingVoice", found.Voice)
	}
	return nil
}

func main() {
	if os.Getenv("PULUMI_MONITOR") != "" {
		// Run by a language host (`pulumi up`): the engine is already listening.
		pulumi.Run(program)
		return
	}
	if err := drive(os.Args[1:]); err != nil {
		// The engine already printed what failed and whether anything was changed.
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// drive runs program through the Automation API: the pulumi CLI on PATH, this folder's Pulumi.yaml.
func drive(argv []string) error {
	flags := flag.NewFlagSet("voiceagent-go", flag.ContinueOnError)
	stackName := flags.String("stack", "dev", "the stack")
	refresh := flags.Bool("refresh", false, "refresh before preview or up")
	summary := flags.Bool("summary", false, "end with one JSON line of change counts and outputs")
	command := "up"
	if len(argv) > 0 && argv[0] != "" && argv[0][0] != '-' {
		command, argv = argv[0], argv[1:]
	}
	if err := flags.Parse(argv); err != nil {
		return err
	}
	ctx := context.Background()
	here, err := os.Getwd()
	if err != nil {
		return err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, *stackName, "voiceagent-go", program, auto.WorkDir(here))
	if err != nil {
		return err
	}
	var changes map[string]int
	outputs := auto.OutputMap{}
	switch command {
	case "up":
		opts := []optup.Option{optup.ProgressStreams(os.Stdout)}
		if *refresh {
			opts = append(opts, optup.Refresh())
		}
		res, err := stack.Up(ctx, opts...)
		if err != nil {
			return err
		}
		changes, outputs = deref(res.Summary.ResourceChanges), res.Outputs
	case "preview":
		opts := []optpreview.Option{optpreview.ProgressStreams(os.Stdout), optpreview.Diff()}
		if *refresh {
			opts = append(opts, optpreview.Refresh())
		}
		res, err := stack.Preview(ctx, opts...)
		if err != nil {
			return err
		}
		changes = map[string]int{}
		for op, n := range res.ChangeSummary {
			changes[string(op)] = n
		}
	case "refresh":
		res, err := stack.Refresh(ctx, optrefresh.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		changes = deref(res.Summary.ResourceChanges)
	case "destroy":
		res, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		changes = deref(res.Summary.ResourceChanges)
	default:
		return errors.New("usage: go run . [up|preview|refresh|destroy] [-stack NAME] [-refresh] [-summary]; got " + command)
	}
	if !*summary {
		return nil
	}
	shown := map[string]any{}
	for name, out := range outputs {
		if out.Secret {
			shown[name] = "[secret]"
		} else {
			shown[name] = out.Value
		}
	}
	line, err := json.Marshal(map[string]any{"changes": changes, "outputs": shown})
	if err != nil {
		return err
	}
	fmt.Println(string(line))
	return nil
}

func deref(changes *map[string]int) map[string]int {
	if changes == nil {
		return map[string]int{}
	}
	return *changes
}
