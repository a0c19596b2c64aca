# Sourced by scripts/env.sh. Puts on PATH, in .tools/bin:
#   pulumi                          the CLI, built from github.com/pulumi/pulumi/pkg/v3
#   pulumi-language-nodejs          our Node.js language host (tools/pulumi/pulumi-language-nodejs)
#   pulumi-language-yaml            the Pulumi YAML language host, pulumi-yaml at a pinned version (va_ensure_yaml_host)
# and, beside the cached pulumi binary (where the engine looks for bundled plugins, so it does not
# warn about a plugin found on PATH):
#   pulumi-resource-pulumi-nodejs   the dynamic-provider launcher shipped in @pulumi/pulumi
# at exactly the version of the installed @pulumi/pulumi. The Go binaries are built through the Go
# module proxy (the usual install downloads a release binary, which cannot work here) and cached in
# $VOICEAGENT_CACHE/pulumi/<version>-<hash of tools/pulumi> so later runs and clones take no time.
# A pulumi already on PATH at the right version is used instead of building one.

va_pulumi_version() {
  node -p 'require(process.argv[1]).version' "$VOICEAGENT_ROOT/node_modules/@pulumi/pulumi/package.json"
}

va_build_pulumi() {
  local out="$1" version="$2" t0 tmp
  t0="$(va_now)"
  va_log "building the Pulumi CLI v$version from the Go module proxy (cold: several minutes on 2 cores)"
  tmp="$out.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  (
    cd "$VOICEAGENT_ROOT/tools/pulumi"
    export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false"
    local ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version -X main.version=v$version"
    go build -trimpath -tags osusergo,grpcnotrace -ldflags "$ldflags" -o "$tmp/pulumi" \
      github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
    go build -trimpath -tags osusergo,grpcnotrace -ldflags "$ldflags" -o "$tmp/pulumi-language-nodejs" \
      ./pulumi-language-nodejs
  ) >&2
  rm -rf "$out" && mv "$tmp" "$out"
  va_log "built the Pulumi CLI in $(va_since "$t0")s"
}

va_ensure_pulumi() {
  local version key out bin existing
  version="$(va_pulumi_version)"
  key="$(cat "$VOICEAGENT_ROOT"/tools/pulumi/go.mod "$VOICEAGENT_ROOT"/tools/pulumi/go.sum \
    "$VOICEAGENT_ROOT"/tools/pulumi/pulumi-language-nodejs/*.go | sha256sum | cut -c1-12)"
  out="$VOICEAGENT_CACHE/pulumi/v$version-$key"
  bin="$VOICEAGENT_TOOLS/bin"
  mkdir -p "$bin" "$VOICEAGENT_CACHE/pulumi"

  existing="$(command -v pulumi || true)"
  if [ -n "$existing" ] && [ "$existing" != "$bin/pulumi" ] &&
    [ "$("$existing" version 2>/dev/null)" = "v$version" ] && command -v pulumi-language-nodejs >/dev/null; then
    va_log "using $existing (v$version)"
  else
    if [ ! -x "$out/pulumi" ] || [ ! -x "$out/pulumi-language-nodejs" ]; then
      # One build at a time per cache, even when two clones start together.
      exec 9>"$VOICEAGENT_CACHE/pulumi/.lock"
      flock 9
      if [ ! -x "$out/pulumi" ] || [ ! -x "$out/pulumi-language-nodejs" ]; then
        va_build_pulumi "$out" "$version"
      fi
      flock -u 9
      exec 9>&-
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
# `pulumi import` code in YAML), built in its own module: pulumi-yaml v1.25.0 calls pkg/v3 3.206's
# signatures, not 3.259's, so it cannot join tools/pulumi's module (tools/pulumi/README.md). Its
# go.mod pins what it needs; the module proxy serves it. Cached in
# $VOICEAGENT_CACHE/pulumi-yaml/v<version>, linked into .tools/bin (on PATH: the CLI finds
# language hosts there).
VOICEAGENT_YAML_VERSION="1.25.0"

va_ensure_yaml_host() {
  local version="$VOICEAGENT_YAML_VERSION" out bin t0 tmp
  out="$VOICEAGENT_CACHE/pulumi-yaml/v$version"
  bin="$VOICEAGENT_TOOLS/bin"
  mkdir -p "$bin" "$VOICEAGENT_CACHE/pulumi-yaml"
  if [ ! -x "$out/pulumi-language-yaml" ]; then
    # One build at a time per cache, even when two clones start together.
    exec 8>"$VOICEAGENT_CACHE/pulumi-yaml/.lock"
    flock 8
    if [ ! -x "$out/pulumi-language-yaml" ]; then
      t0="$(va_now)"
      va_log "building pulumi-language-yaml v$version from the Go module proxy (cold: about a minute on 2 cores)"
      tmp="$out.tmp.$$"
      rm -rf "$tmp" && mkdir -p "$tmp"
      # Outside any module (the working directory is the cache), so `go install pkg@version`
      # resolves pulumi-yaml's own go.mod.
      (cd "$VOICEAGENT_CACHE/pulumi-yaml" &&
        GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false GOBIN="$tmp" \
          go install -trimpath -ldflags "-s -w" \
          "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v$version") >&2
      rm -rf "$out" && mv "$tmp" "$out"
      va_log "built pulumi-language-yaml in $(va_since "$t0")s"
    fi
    flock -u 8
    exec 8>&-
  fi
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
