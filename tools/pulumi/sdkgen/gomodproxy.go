package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// packGo writes the Go module in -dir, at -version, into -proxy as a GOPROXY=file:// folder, so
// that a program can `go get` the SDK as users get a published module (its zip, made by the same
// code as the go command's, with the go command's file rules), not through a replace directive.
//
//	pulumi-sdkgen pack-go -dir sdk -version v0.2.0 -proxy /tmp/proxy
func packGo(args []string) error {
	flags := flag.NewFlagSet("pack-go", flag.ContinueOnError)
	dir := flags.String("dir", "sdk", "the module's root folder (holding go.mod)")
	version := flags.String("version", "", "the module version, e.g. v0.2.0")
	proxy := flags.String("proxy", "", "the proxy folder to write into")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *version == "" || *proxy == "" {
		return fmt.Errorf("pack-go needs -version and -proxy")
	}
	gomod, err := os.ReadFile(filepath.Join(*dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	mv := module.Version{Path: path, Version: *version}
	if err := module.Check(path, *version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	at := filepath.Join(*proxy, escaped, "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(at, *version+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zipFile, mv, *dir); err != nil {
		zipFile.Close()
		return fmt.Errorf("zipping %s: %w", *dir, err)
	}
	if err := zipFile.Close(); err != nil {
		return err
	}
	info, err := json.Marshal(map[string]string{"Version": *version, "Time": time.Unix(0, 0).UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{*version + ".mod": gomod, *version + ".info": info, "list": []byte(*version + "\n")} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
