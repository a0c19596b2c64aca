package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// exitAfterReportedError is the exit code with which a program says it already showed the user an
// actionable message; the engine must then not print a second, generic one.
const exitAfterReportedError = 32

//go:embed run-python.py
var runPython string

// programDir is where the program lives: Pulumi.yaml's main, else the project folder.
func programDir(req *pulumirpc.RunRequest) string {
	if dir := req.GetInfo().GetProgramDirectory(); dir != "" {
		return dir
	}
	return req.GetPwd()
}

// pythonCommand starts run-python.py with the project's interpreter: PULUMI_PYTHON_CMD when set
// (an explicit choice for this run), else Pulumi.yaml's `virtualenv` option (relative to the
// project), else python3 on PATH.
func (h *sdkHost) pythonCommand(ctx context.Context, req *pulumirpc.RunRequest) (*exec.Cmd, error) {
	python := os.Getenv("PULUMI_PYTHON_CMD")
	if venv, ok := req.GetInfo().GetOptions().AsMap()["virtualenv"].(string); ok && venv != "" && python == "" {
		if !filepath.IsAbs(venv) {
			venv = filepath.Join(req.GetInfo().GetRootDirectory(), venv)
		}
		python = filepath.Join(venv, "bin", "python")
	}
	if python == "" {
		python = "python3"
	}
	path, err := exec.LookPath(python)
	if err != nil {
		return nil, fmt.Errorf("could not find %s (make the virtualenv Pulumi.yaml names, or set PULUMI_PYTHON_CMD): %w", python, err)
	}
	args := []string{"-u", "-c", runPython}
	add := func(flag, value string) {
		if value != "" {
			args = append(args, "--"+flag, value)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", h.engineAddress)
	add("project", req.GetProject())
	add("stack", req.GetStack())
	add("organization", req.GetOrganization())
	add("root-directory", req.GetInfo().GetRootDirectory())
	add("pwd", req.GetPwd())
	if req.GetParallel() > 0 {
		add("parallel", strconv.Itoa(int(req.GetParallel())))
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	main := req.GetInfo().GetEntryPoint()
	if main == "" || main == "." {
		main = programDir(req)
	} else if !filepath.IsAbs(main) {
		main = filepath.Join(programDir(req), main)
	}
	args = append(args, "--", main)
	return exec.CommandContext(ctx, path, append(args, req.GetArgs()...)...), nil
}

// goCommand builds the program's folder (as `go build`, into a temporary file) and runs it with
// the settings in the environment variables that pulumi.Run reads.
// The caller removes the returned folder, which holds the binary.
func (h *sdkHost) goCommand(ctx context.Context, req *pulumirpc.RunRequest, env []string) (*exec.Cmd, []string, string, error) {
	tmp, err := os.MkdirTemp("", "pulumi-go-program-")
	if err != nil {
		return nil, nil, "", err
	}
	bin := filepath.Join(tmp, "program")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	build.Dir = programDir(req)
	build.Stdout = os.Stderr
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return nil, nil, tmp, fmt.Errorf("go build in %s failed (its errors are above): %w", build.Dir, err)
	}
	env = append(env,
		"PULUMI_MONITOR="+req.GetMonitorAddress(),
		"PULUMI_ENGINE="+h.engineAddress,
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_ROOT_DIRECTORY="+req.GetInfo().GetRootDirectory(),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
		"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
	)
	return exec.CommandContext(ctx, bin, req.GetArgs()...), env, tmp, nil
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func orEmptySlice(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
