package main

// RunPlugin: the engine asks the language host of a plugin folder's runtime to start it when the
// folder holds a PulumiPlugin.yaml (a resource, converter or tool plugin written in Node) or a
// PulumiPolicy.yaml (a policy pack, kind "analyzer"). As upstream's host, we start Node on the
// runner that @pulumi/pulumi ships for each (resolved from the plugin's folder, so the plugin's own
// install is used whatever the program's language) and stream its stdout and stderr back to the
// engine, which reads the plugin's port from the first stdout line.
//
// A policy pack needs one more step: @pulumi/policy reads the stack's organization, project, stack
// name and configuration from environment variables at start-up, while the engine only sends them
// afterwards, in the analyzer's ConfigureStack call. The SDK's PolicyProxy (sdk/v3, written for
// language hosts) answers that call first, and we then start the pack with those variables and let
// the proxy forward every later call to it.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The runners @pulumi/pulumi ships: a policy pack's, and every other Node plugin's.
const (
	policyPackRunner = "@pulumi/pulumi/cmd/run-policy-pack"
	pluginRunner     = "@pulumi/pulumi/cmd/run-plugin"
)

func (h *nodeHost) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	// The stream's context: when the engine is done with the plugin, it ends and Node is stopped.
	ctx := server.Context()
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("could not find node on PATH to run the plugin in %s: %w", req.GetInfo().GetProgramDirectory(), err)
	}
	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return err
	}
	dir := req.GetInfo().GetProgramDirectory()
	policyPack := req.GetKind() == string(apitype.AnalyzerPlugin)

	runner := pluginRunner
	if policyPack {
		runner = policyPackRunner
	} else if custom := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH"); custom != "" {
		runner = custom
	}
	runPath, err := resolveModule(node, runner, dir)
	if err != nil {
		return err
	}

	env := req.GetEnv()
	if len(env) == 0 {
		env = os.Environ()
	}
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	// The policy runner takes the plugin's folder last, every other runner first.
	args := append([]string{runPath}, strings.Fields(opts.nodeargs)...)
	if policyPack {
		args = append(append(args, req.GetArgs()...), dir)
	} else {
		args = append(append(args, dir), req.GetArgs()...)
	}

	var proxy *sdk.PolicyProxy
	if policyPack {
		// The proxy prints its own port on our stdout and takes the pack's port line off the
		// pack's stdout (everything after it is passed on).
		proxy, stdout, err = sdk.NewPolicyProxy(ctx, stdout)
		if err != nil {
			return fmt.Errorf("could not start the policy pack proxy: %w", err)
		}
		stack, err := proxy.AwaitConfiguration(ctx)
		if err != nil {
			return fmt.Errorf("could not get the stack's configuration for the policy pack: %w", err)
		}
		if env, err = withStackConfiguration(env, stack); err != nil {
			return err
		}
	}

	cmd := exec.CommandContext(ctx, node, args...)
	// Policy packs have always run in their own folder; other plugins in the engine's directory.
	cmd.Dir = req.GetPwd()
	if policyPack {
		cmd.Dir = dir
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr

	if err := cmd.Start(); err != nil {
		return fmt.Errorf("could not run node for the plugin in %s: %w", dir, err)
	}
	if proxy != nil {
		err = proxy.Attach(ctx, cmd)
	} else {
		err = cmd.Wait()
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		// The plugin ran and failed; what it printed has been streamed. The engine reads the code.
		if flushErr := closer.Close(); flushErr != nil {
			return flushErr
		}
		return server.Send(&pulumirpc.RunPluginResponse{
			Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(exitErr.ExitCode())},
		})
	}
	if err != nil {
		return err
	}
	return closer.Close()
}

// withStackConfiguration adds what @pulumi/policy reads at start-up (the runner's settings) to env.
func withStackConfiguration(env []string, stack *pulumirpc.AnalyzerStackConfigureRequest) ([]string, error) {
	if stack == nil {
		return env, nil
	}
	add := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	add("PULUMI_NODEJS_ORGANIZATION", stack.GetOrganization())
	add("PULUMI_NODEJS_PROJECT", stack.GetProject())
	add("PULUMI_NODEJS_STACK", stack.GetStack())
	add("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(stack.GetDryRun()))
	if stack.GetConfig() != nil {
		config, err := json.Marshal(stack.GetConfig())
		if err != nil {
			return nil, fmt.Errorf("could not encode the stack's configuration for the policy pack: %w", err)
		}
		add("PULUMI_CONFIG", string(config))
	}
	return env, nil
}

// resolveModule asks Node where `module` resolves from dir, so that the plugin's own install is
// used with Node's rules (hoisting, pnpm's links, package exports), as upstream's host does.
func resolveModule(node, module, dir string) (string, error) {
	const script = `try { process.stdout.write(require.resolve(process.argv[1])); } catch (e) {` +
		` console.error(e.code === "MODULE_NOT_FOUND" ? "" : e.message); process.exit(1); }`
	cmd := exec.Command(node, "-e", script, module)
	cmd.Dir = dir
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		detail := strings.TrimSpace(errOut.String())
		if detail == "" {
			detail = "the plugin's dependencies are not installed"
		}
		return "", fmt.Errorf("could not find %s from %s (%s): run npm install in %s", module, dir, detail, dir)
	}
	return strings.TrimSpace(string(out)), nil
}
