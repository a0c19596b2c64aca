# Sourced by scripts/env.sh. Puts on PATH, in .tools/bin:
#   pulumi                          the CLI, built from github.com/pulumi/pulumi/pkg/v3
#   pulumi-language-nodejs          our Node.js language host (tools/pulumi/pulumi-language-nodejs)
#   pulumi-language-yaml            the Pulumi YAML language host, pulumi-yaml at a pinned version (va_ensure_yaml_host)
# and, beside the cached pulumi binary (where the engine looks for bundled plugins, so it does not
# warn about a plugin found on PATH):
#   pulumi-resource-pulumi-nodejs   the dynamic-provider launcher shipped in @pulumi/pulumi
# at exactly the version of the installed @pulumi/pulumi (it ships there). The CLI's version is
# versions.json's `cli`, independent of @pulumi/pulumi's (`nodejs`): users' are rarely the same.
# The Go binaries are built through the Go
# module proxy (the usual install downloads a release binary, which cannot work here) and cached
# apart in $VOICEAGENT_CACHE/pulumi/: the CLI in cli/<version>-<hash of go.mod and go.sum>, the
# host in nodejs-host/<version>-<hash of go.mod, go.sum and its .go files>, so later runs and clones
# take no time and a change to the host does not rebuild the CLI.
# A pulumi already on PATH at the right version is used instead of building one.

# va_version KEY: a version from versions.json (cli, nodejs, python, go, yaml), the one place
# every Pulumi version of this repository is written.
va_version() {
  node -p 'require(process.argv[1])[process.argv[2]] ?? ""' "$VOICEAGENT_ROOT/versions.json" "$1"
}

# The CLI's version: the pkg/v3 and sdk/v3 of tools/pulumi/go.mod (test/repo/versions.test.ts checks
# they agree), stamped into the binary.
va_pulumi_version() { va_version cli; }

# The Go build flags every binary of tools/pulumi is built with (run in tools/pulumi).
va_go_build() {
  local version="$1"
  shift
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false"
  go build -trimpath -tags osusergo,grpcnotrace \
    -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version -X main.version=v$version" "$@"
}

# Builds into a temporary folder beside `out` and moves it into place, so no run sees half of it.
va_build_into() {
  local out="$1" what="$2" version="$3" target="$4" package="$5" t0 tmp
  t0="$(va_now)"
  tmp="$out.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  (cd "$VOICEAGENT_ROOT/tools/pulumi" && va_go_build "$version" -o "$tmp/$target" "$package") >&2
  rm -rf "$out" && mv "$tmp" "$out"
  va_log "built $what in $(va_since "$t0")s"
}

# Runs `build` once per cache entry `out` (holding `file`), one build at a time per `lock`, even
# when two clones start together.
va_cached_build() {
  local out="$1" file="$2" lock="$3"
  shift 3
  [ -x "$out/$file" ] && return 0
  mkdir -p "$(dirname "$out")"
  (
    exec 9>"$lock"
    flock 9
    [ -x "$out/$file" ] || "$@"
  )
}

va_build_pulumi_cli() {
  va_log "building the Pulumi CLI v$2 from the Go module proxy (cold: several minutes on 2 cores)"
  va_build_into "$1" "the Pulumi CLI" "$2" pulumi github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
}

va_build_nodejs_host() {
  va_log "building our Node.js language host (tools/pulumi/pulumi-language-nodejs)"
  va_build_into "$1" "the Node.js language host" "$2" pulumi-language-nodejs ./pulumi-language-nodejs
}

# The first 12 hex digits of the sha256 of the given files' contents.
va_hash_files() { cat "$@" | sha256sum | cut -c1-12; }

# The CLI and our Node.js host are cached apart, each keyed by what it is built from (a change to
# the host rebuilds the host alone, in seconds), and put together in a folder per pair: the engine
# finds a bundled language host beside the resolved pulumi executable (also with
# PULUMI_IGNORE_AMBIENT_PLUGINS, and without warning about one on PATH). Hard links, when the cache
# is on one file system, make that folder free.
va_ensure_pulumi() {
  local version mod_key host_key cli host out bin existing
  version="$(va_pulumi_version)"
  mod_key="$(va_hash_files "$VOICEAGENT_ROOT"/tools/pulumi/go.mod "$VOICEAGENT_ROOT"/tools/pulumi/go.sum)"
  host_key="$(va_hash_files "$VOICEAGENT_ROOT"/tools/pulumi/go.mod "$VOICEAGENT_ROOT"/tools/pulumi/go.sum \
    "$VOICEAGENT_ROOT"/tools/pulumi/pulumi-language-nodejs/*.go)"
  cli="$VOICEAGENT_CACHE/pulumi/cli/v$version-$mod_key"
  host="$VOICEAGENT_CACHE/pulumi/nodejs-host/v$version-$host_key"
  out="$VOICEAGENT_CACHE/pulumi/v$version-$mod_key-$host_key"
  bin="$VOICEAGENT_TOOLS/bin"
  mkdir -p "$bin" "$VOICEAGENT_CACHE/pulumi"

  existing="$(command -v pulumi || true)"
  if [ -n "$existing" ] && [ "$existing" != "$bin/pulumi" ] &&
    [ "$("$existing" version 2>/dev/null)" = "v$version" ] && command -v pulumi-language-nodejs >/dev/null; then
    va_log "using $existing (v$version)"
  else
    if [ ! -x "$out/pulumi" ] || [ ! -x "$out/pulumi-language-nodejs" ]; then
      va_cached_build "$cli" pulumi "$VOICEAGENT_CACHE/pulumi/.lock" va_build_pulumi_cli "$cli" "$version"
      va_cached_build "$host" pulumi-language-nodejs "$VOICEAGENT_CACHE/pulumi/.nodejs-host.lock" \
        va_build_nodejs_host "$host" "$version"
      local tmp="$out.tmp.$$"
      rm -rf "$tmp" && mkdir -p "$tmp"
      ln "$cli/pulumi" "$tmp/pulumi" 2>/dev/null || cp "$cli/pulumi" "$tmp/pulumi"
      ln "$host/pulumi-language-nodejs" "$tmp/pulumi-language-nodejs" 2>/dev/null ||
        cp "$host/pulumi-language-nodejs" "$tmp/pulumi-language-nodejs"
      # Another clone may have put the same pair together meanwhile: theirs is identical.
      mv -T "$tmp" "$out" 2>/dev/null || rm -rf "$tmp"
    fi
    ln -sf "$out/pulumi" "$bin/pulumi"
    ln -sf "$out/pulumi-language-nodejs" "$bin/pulumi-language-nodejs"
  fi
  # The launcher resolves @pulumi/pulumi from the working directory, so one copy serves every clone.
  local launcher="$VOICEAGENT_ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  local beside
  beside="$(dirname "$(readlink -f "$(command -v pulumi || echo "$bin/pulumi")")")"
  if [ -w "$beside" ] && ! cmp -s "$launcher" "$beside/pulumi-resource-pulumi-nodejs"; then
    cp "$launcher" "$beside/pulumi-resource-pulumi-nodejs.tmp.$$"
    chmod +x "$beside/pulumi-resource-pulumi-nodejs.tmp.$$"
    mv "$beside/pulumi-resource-pulumi-nodejs.tmp.$$" "$beside/pulumi-resource-pulumi-nodejs"
  fi
  rm -f "$bin/pulumi-resource-pulumi-nodejs"
  export PATH="$bin:$PATH"
}

# pulumi-language-yaml, the language host of `runtime: yaml` projects (Pulumi YAML programs and
# `pulumi import` code in YAML), at versions.json's `yaml`, built in its own module: pulumi-yaml
# v1.25.0 (the newest the module proxy serves) calls pkg/v3 3.206's signatures, not the CLI's, so it
# cannot join tools/pulumi's module (tools/pulumi/README.md). Its go.mod pins what it needs; the
# module proxy serves it. Cached in $VOICEAGENT_CACHE/pulumi-yaml/v<version>, linked into
# .tools/bin (on PATH: the CLI finds language hosts there).

# Builds pulumi-language-yaml into `out`, through a temporary folder beside it (no run sees half).
va_build_yaml_host() {
  local out="$1" version="$2" t0 tmp
  t0="$(va_now)"
  va_log "building pulumi-language-yaml v$version from the Go module proxy (cold: about a minute on 2 cores)"
  tmp="$out.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  # Outside any module (the working directory is the cache), so `go install pkg@version`
  # resolves pulumi-yaml's own go.mod.
  (cd "$(dirname "$out")" &&
    GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false GOBIN="$tmp" \
      go install -trimpath -ldflags "-s -w" \
      "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v$version") >&2
  rm -rf "$out" && mv "$tmp" "$out"
  va_log "built pulumi-language-yaml in $(va_since "$t0")s"
}

va_ensure_yaml_host() {
  local version out bin
  version="$(va_version yaml)"
  out="$VOICEAGENT_CACHE/pulumi-yaml/v$version"
  bin="$VOICEAGENT_TOOLS/bin"
  mkdir -p "$bin" "$VOICEAGENT_CACHE/pulumi-yaml"
  va_cached_build "$out" pulumi-language-yaml "$VOICEAGENT_CACHE/pulumi-yaml/.lock" \
    va_build_yaml_host "$out" "$version"
  # Beside the pulumi binary too, where the engine looks for bundled plugins: a host found on PATH
  # elsewhere than there makes every run warn "using pulumi-language-yaml from $PATH". A hard link
  # (the same file), with .tools/bin pointing at it, so the two paths resolve alike.
  local beside
  beside="$(dirname "$(readlink -f "$(command -v pulumi || echo "$bin/pulumi")")")"
  if [ -w "$beside" ]; then
    if [ -L "$beside/pulumi-language-yaml" ] || ! [ "$beside/pulumi-language-yaml" -ef "$out/pulumi-language-yaml" ]; then
      ln -f "$out/pulumi-language-yaml" "$beside/pulumi-language-yaml.tmp.$$" 2>/dev/null ||
        cp "$out/pulumi-language-yaml" "$beside/pulumi-language-yaml.tmp.$$"
      mv -f "$beside/pulumi-language-yaml.tmp.$$" "$beside/pulumi-language-yaml"
    fi
    ln -sf "$beside/pulumi-language-yaml" "$bin/pulumi-language-yaml"
  else
    ln -sf "$out/pulumi-language-yaml" "$bin/pulumi-language-yaml"
  fi
}
