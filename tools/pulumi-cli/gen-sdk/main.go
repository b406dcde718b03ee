// Command gen-sdk writes an SDK of a Pulumi package from its schema with Pulumi's own code
// generators (pkg/v3/codegen): what `pulumi package gen-sdk` does through a language host.
// Usage: gen-sdk SCHEMA.json nodejs|python|go OUT-DIR
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "platform-pulumi"

// noPackages is the loader of a schema that refers to no other package.
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %s; it may refer to none", pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noPackages) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %s; it may refer to none", pkg)
}

func (l noPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen-sdk:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: gen-sdk SCHEMA.json nodejs|python|go OUT-DIR")
	}
	text, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("reading %s: %w", args[0], err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	var files map[string][]byte
	switch args[1] {
	case "nodejs":
		files, err = nodejs.GeneratePackage(tool, pkg, nil, nil, false, noPackages{})
	case "python":
		files, err = python.GeneratePackage(tool, pkg, nil, noPackages{})
	case "go":
		files, err = gogen.GeneratePackage(tool, pkg, nil)
	default:
		return fmt.Errorf("no generator for %q", args[1])
	}
	if err != nil {
		return err
	}
	for name, content := range files {
		file := filepath.Join(args[2], name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
