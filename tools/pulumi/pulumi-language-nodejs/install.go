package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
)

// InstallDependencies installs the program's node_modules for `pulumi new` and `pulumi install`:
// with the packagemanager runtime option, or, when it is unset or "auto", the package manager
// whose lockfile the project has (npm when none), from the workspace root when the program is
// part of an npm, yarn or pnpm workspace. The package manager's output is streamed to the engine.
func (h *nodeHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()

	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return err
	}
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory()
	}
	root := dir
	if ws, err := npm.FindWorkspaceRoot(dir); err == nil {
		fmt.Fprintf(stdout, "Detected workspace root at %s\n", ws)
		root = ws
	} else if !errors.Is(err, npm.ErrNotInWorkspace) {
		return fmt.Errorf("looking for a workspace root above %s: %w", dir, err)
	}

	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	name, err := npm.Install(server.Context(), opts.packagemanager, root, opts.production, stdout, stderr)
	if err != nil {
		return fmt.Errorf("%s install failed in %s (nothing else was changed): %w; fix the error above and run `pulumi install`",
			orUnknown(name), root, err)
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

// RuntimeOptionsPrompts asks `pulumi new` for the package manager when Pulumi.yaml does not name
// one, as upstream does (npm by default; `--yes` takes the default and records it).
func (h *nodeHost) RuntimeOptionsPrompts(
	_ context.Context, req *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	if _, set := req.GetInfo().GetOptions().AsMap()["packagemanager"]; set {
		return &pulumirpc.RuntimeOptionsResponse{}, nil
	}
	return &pulumirpc.RuntimeOptionsResponse{Prompts: []*pulumirpc.RuntimeOptionPrompt{{
		Key:         "packagemanager",
		Description: "The package manager to use for installing dependencies",
		PromptType:  pulumirpc.RuntimeOptionPrompt_STRING,
		Choices:     plugin.MakeExecutablePromptChoices("npm", "pnpm", "yarn", "bun"),
		Default: &pulumirpc.RuntimeOptionPrompt_RuntimeOptionValue{
			PromptType:  pulumirpc.RuntimeOptionPrompt_STRING,
			StringValue: "npm",
		},
	}}}, nil
}

// Template runs after `pulumi new` copied a template. With pnpm it writes a pnpm-workspace.yaml
// that skips protobufjs's install script (which pnpm 11 refuses to leave unlisted), as upstream.
func (h *nodeHost) Template(_ context.Context, req *pulumirpc.TemplateRequest) (*pulumirpc.TemplateResponse, error) {
	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	if opts.packagemanager != npm.PnpmPackageManager {
		return &pulumirpc.TemplateResponse{}, nil
	}
	path := filepath.Join(req.GetInfo().GetProgramDirectory(), "pnpm-workspace.yaml")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		content := "# protobufjs's install script is not needed (and pnpm 11 fails install unless it is listed here).\n" +
			"allowBuilds:\n  protobufjs: false\n"
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			return nil, fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return &pulumirpc.TemplateResponse{}, nil
}

// GetProgramDependencies lists the installed packages for `pulumi about`, from the lockfile of the
// project's package manager.
func (h *nodeHost) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	pm, err := npm.ResolvePackageManager(opts.packagemanager, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, err
	}
	packages, err := pm.ListPackages(ctx, req.GetInfo().GetProgramDirectory(), req.GetTransitiveDependencies())
	if err != nil {
		return nil, fmt.Errorf("listing the program's %s packages: %w", pm.Name(), err)
	}
	deps := make([]*pulumirpc.DependencyInfo, 0, len(packages))
	for _, p := range packages {
		deps = append(deps, &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

func orUnknown(name string) string {
	if name == "" {
		return "the package manager's"
	}
	return name
}
