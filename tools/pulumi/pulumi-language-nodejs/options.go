package main

import (
	"errors"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
)

// nodeOptions are the `runtime.options` of Pulumi.yaml this host reads, with upstream's defaults:
// TypeScript on, the package manager chosen from the lockfile ("auto").
type nodeOptions struct {
	typescript     bool
	tsconfig       string
	nodeargs       string
	packagemanager npm.PackageManagerType
	production     bool
}

// parseOptions reads the runtime options, refusing a value of the wrong type by name, as
// upstream does, rather than silently falling back to a default the user did not choose.
func parseOptions(raw map[string]any) (nodeOptions, error) {
	opts := nodeOptions{typescript: true, packagemanager: npm.AutoPackageManager}
	if v, ok := raw["typescript"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return opts, errors.New("Pulumi.yaml: runtime option typescript must be true or false")
		}
		opts.typescript = b
	}
	if v, ok := raw["production"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return opts, errors.New("Pulumi.yaml: runtime option production must be true or false")
		}
		opts.production = b
	}
	for name, dst := range map[string]*string{"tsconfig": &opts.tsconfig, "nodeargs": &opts.nodeargs} {
		if v, ok := raw[name]; ok {
			s, isString := v.(string)
			if !isString {
				return opts, fmt.Errorf("Pulumi.yaml: runtime option %s must be a string", name)
			}
			*dst = s
		}
	}
	if v, ok := raw["packagemanager"]; ok {
		s, _ := v.(string)
		switch pm := npm.PackageManagerType(s); pm {
		case npm.AutoPackageManager, npm.NpmPackageManager, npm.PnpmPackageManager, npm.YarnPackageManager,
			npm.BunPackageManager:
			opts.packagemanager = pm
		default:
			return opts, fmt.Errorf(
				"Pulumi.yaml: runtime option packagemanager must be auto, npm, pnpm, yarn or bun, not %v", v)
		}
	}
	return opts, nil
}
