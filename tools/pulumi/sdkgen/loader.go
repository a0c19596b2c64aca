package main

import (
	"context"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noLoader answers every request for another package with an error: the voiceagent schema is
// self-contained, and reaching for a plugin host here would need the engine.
type noLoader struct{}

func (noLoader) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noLoader) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noLoader) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errNoDependencies
}

func (noLoader) LoadPackageReferenceV2(context.Context, *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, errNoDependencies
}
