// Command pulumi-sdkgen writes the Python and Go SDKs of the voiceagent package from its schema,
// with the code generators of pkg/v3 (the ones `pulumi package gen-sdk` reaches through the
// python and go language hosts, which the module proxy does not serve here).
//
//	pulumi-sdkgen -schema provider/schema.json -out sdk
//
// writes sdk/python/ (the whole Python project: pyproject.toml, README.md, pulumi_voiceagent/)
// and sdk/go/voiceagent/ (the Go package). Each target folder is emptied first, so files the
// schema no longer produces disappear. sdk/go.mod and sdk/go.sum are not generated: they belong
// to the module and are kept with `go mod tidy`.
//
//	pulumi-sdkgen pack-go -dir sdk -version v0.2.0 -proxy DIR
//
// packs the Go module as a GOPROXY=file:// folder (see gomodproxy.go).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators print in each file's "do not edit" header.
const tool = "pulumi-sdkgen (tools/pulumi/sdkgen)"

func main() {
	// Installed as pulumi-language-python / pulumi-language-go (links to this binary), it is a
	// language host that serves GeneratePackage, so `pulumi package gen-sdk` works (host.go).
	switch filepath.Base(os.Args[0]) {
	case "pulumi-language-python":
		serveHost("python")
		return
	case "pulumi-language-go":
		serveHost("go")
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "pack-go" {
		if err := packGo(os.Args[2:]); err != nil {
			fmt.Fprintf(os.Stderr, "pulumi-sdkgen pack-go: %v\n", err)
			os.Exit(1)
		}
		return
	}
	schemaPath := flag.String("schema", "provider/schema.json", "the package schema")
	out := flag.String("out", "sdk", "the folder that receives python/ and go/<package>/")
	languages := flag.String("language", "python,go", "comma-separated: python, go")
	overlay := flag.String("python-overlay", "", "a folder of hand-written .py files shipped in the Python package (e.g. sdk-overlays/python)")
	flag.Parse()
	if err := run(*schemaPath, *out, strings.Split(*languages, ","), *overlay); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string, languages []string, overlay string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	for _, lang := range languages {
		var dir string
		switch lang {
		case "python":
			dir = filepath.Join(out, "python")
		case "go":
			dir = filepath.Join(out, "go")
		default:
			return fmt.Errorf("unknown language %q (python, go)", lang)
		}
		if err := generate(lang, raw, dir, overlay); err != nil {
			return fmt.Errorf("%s: %w", schemaPath, err)
		}
	}
	return nil
}

// generate writes one language's SDK of the schema `raw` into dir: for python the whole project
// (dir is emptied first), for go the package folder dir/<name> (emptied first), so files the
// schema no longer produces disappear. The .py files of pythonOverlay (if not "") go into the
// Python package beside the generated modules, and its __init__.py imports each of them.
func generate(lang string, raw []byte, dir, pythonOverlay string) error {
	// Each generator records its own language options on the package it is given, so every
	// language binds its own copy of the spec.
	pkg, err := load(raw)
	if err != nil {
		return err
	}
	var files map[string][]byte
	clear := dir
	switch lang {
	case "python":
		var extra map[string][]byte
		if extra, err = readOverlay(pythonOverlay); err != nil {
			return err
		}
		files, err = python.GeneratePackage(tool, pkg, extra, nil)
		if readme, ok := files[pythonPackage(pkg)+"/README.md"]; ok && err == nil {
			// pyproject.toml names README.md beside it (upstream's Makefiles copy it there).
			files["README.md"] = readme
		}
	case "go":
		files, err = gogen.GeneratePackage(tool, pkg, nil)
		files = only(files, pkg.Name+"/")
		clear = filepath.Join(dir, pkg.Name)
	default:
		return fmt.Errorf("unknown language %q (python, go)", lang)
	}
	if err != nil {
		return fmt.Errorf("generating the %s SDK: %w", lang, err)
	}
	if err := os.RemoveAll(clear); err != nil {
		return err
	}
	return write(dir, files)
}

// readOverlay reads the .py files of dir (none when dir is ""), by file name.
func readOverlay(dir string) (map[string][]byte, error) {
	if dir == "" {
		return nil, nil
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.py"))
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("-python-overlay %s: no .py files", dir)
	}
	files := map[string][]byte{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		files[filepath.Base(name)] = data
	}
	return files, nil
}

// pythonPackage is the Python package's folder: the schema's language.python.packageName, or
// pulumi_<name> as the generator derives it.
func pythonPackage(pkg *schema.Package) string {
	if info, ok := pkg.Language["python"].(python.PackageInfo); ok && info.PackageName != "" {
		return info.PackageName
	}
	return "pulumi_" + pkg.Name
}

// load binds the schema. The package depends on no other package, so no loader is needed; a
// reference to another package is an error.
func load(raw []byte) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, errors.New(diags.Error())
	}
	return pkg, nil
}

// only keeps the files under prefix: the Go generator also writes .gitattributes and, for
// packages with SupportPack, a go.mod, which live at the module root and are ours to write.
func only(files map[string][]byte, prefix string) map[string][]byte {
	kept := map[string][]byte{}
	for name, data := range files {
		if strings.HasPrefix(name, prefix) {
			kept[name] = data
		}
	}
	return kept
}

func write(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

var errNoDependencies = errors.New("the voiceagent schema references another package; pulumi-sdkgen loads none")
