package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// pulumiVersion is the version of the Pulumi SDK this binary was built with (the CLI's), which
// the host reports as its own, as upstream's hosts do.
func pulumiVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/pulumi/pulumi/sdk/v3" {
				return strings.TrimPrefix(dep.Version, "v")
			}
		}
	}
	return "3.0.0"
}

// serveHost serves a small LanguageRuntime for `language` (python or go), in place of the upstream
// hosts that the module proxy refuses: GeneratePackage (what `pulumi package gen-sdk <schema>
// --language <language>` calls) and Run (`pulumi up` in a Python or Go project, run.go). Package
// and plugin discovery answer "none": Pulumi.yaml's plugins section or an installed plugin serves.
func serveHost(language string) {
	host := &sdkHost{language: language}
	for _, arg := range os.Args[1:] {
		// The engine's address is the one argument that is not a flag (-v=N, --logtostderr, ...).
		if !strings.HasPrefix(arg, "-") {
			host.engineAddress = arg
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-%s: could not start the RPC server: %v\n", language, err)
		os.Exit(1)
	}
	// The engine reads the port from our first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-%s: RPC server stopped: %v\n", language, err)
		os.Exit(1)
	}
}

type sdkHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	language      string
	engineAddress string
}

func (h *sdkHost) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *sdkHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: pulumiVersion()}, nil
}

func (h *sdkHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *sdkHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// Run runs the program: Python through run-python.py, Go by building the program's folder. How
// it ended is reported as upstream's hosts do (exit code 32: the program already told the user).
func (h *sdkHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	config, err := json.Marshal(orEmpty(req.GetConfig()))
	if err != nil {
		return nil, err
	}
	secretKeys, err := json.Marshal(orEmptySlice(req.GetConfigSecretKeys()))
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), "PULUMI_CONFIG="+string(config), "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeys))
	var cmd *exec.Cmd
	switch h.language {
	case "python":
		cmd, err = h.pythonCommand(ctx, req)
	default:
		var tmp string
		cmd, env, tmp, err = h.goCommand(ctx, req, env)
		if tmp != "" {
			defer os.RemoveAll(tmp)
		}
	}
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitAfterReportedError {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode())}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not run the %s program: %v", h.language, err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// hostOverlay is the Python overlay when the CLI runs within this repository's scripts
// (scripts/env.sh exports VOICEAGENT_ROOT), so `pulumi package gen-sdk` writes what
// `npm run gen:sdks` does; elsewhere, none.
func hostOverlay() string {
	root := os.Getenv("VOICEAGENT_ROOT")
	if root == "" {
		return ""
	}
	dir := filepath.Join(root, "sdk-overlays", "python")
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return ""
	}
	return dir
}

// GeneratePackage writes the SDK of the request's schema into its directory, as the CLI's
// `pulumi package gen-sdk` asks (then into <out>/<language>).
func (h *sdkHost) GeneratePackage(_ context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	if err := generate(h.language, []byte(req.GetSchema()), req.GetDirectory(), hostOverlay()); err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{}, nil
}
