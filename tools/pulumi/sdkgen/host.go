package main

import (
	"context"
	"fmt"
	"os"
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

// serveHost serves the LanguageRuntime of `language` for SDK generation only: the upstream python
// and go hosts cannot be built here (the module proxy refuses them), and their GeneratePackage is
// what `pulumi package gen-sdk <schema> --language <language>` calls. Running programs is left to
// the Automation API, which needs no host; Run says so instead of the engine's "no language plugin".
func serveHost(language string) {
	host := &sdkHost{language: language}
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
	language string
}

func (h *sdkHost) Handshake(context.Context, *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
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

func (h *sdkHost) Run(context.Context, *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	how := map[string]string{"python": "python __main__.py up", "go": "go run . up"}[h.language]
	return &pulumirpc.RunResponse{Error: fmt.Sprintf(
		"this pulumi-language-%s only generates SDKs (the upstream host cannot be built here): nothing was run or "+
			"changed; run the program through the Automation API instead, e.g. `%s` in the project folder "+
			"(see examples/%s)", h.language, how, h.language)}, nil
}

// GeneratePackage writes the SDK of the request's schema into its directory, as the CLI's
// `pulumi package gen-sdk` asks (then into <out>/<language>).
func (h *sdkHost) GeneratePackage(_ context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	if err := generate(h.language, []byte(req.GetSchema()), req.GetDirectory()); err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{}, nil
}
