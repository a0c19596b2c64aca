# Sourced by scripts that need pulumi-sdkgen (tools/pulumi/sdkgen: the Python and Go SDK
# generators of pkg/v3). Built from the same Go module as the CLI, with the same flags, so the
# module cache and the build cache are shared with it; cached in
# $VOICEAGENT_CACHE/sdkgen/<hash of tools/pulumi's go.mod, go.sum and sdkgen/*.go>/, built once.
# Needs scripts/env.sh sourced first (va_log, VOICEAGENT_ROOT, VOICEAGENT_CACHE).

# va_sdkgen_path: builds pulumi-sdkgen when its cache entry is missing and prints its path.
va_sdkgen_path() {
  local key out
  key="$(cat "$VOICEAGENT_ROOT"/tools/pulumi/go.mod "$VOICEAGENT_ROOT"/tools/pulumi/go.sum \
    "$VOICEAGENT_ROOT"/tools/pulumi/sdkgen/*.go | sha256sum | cut -c1-12)"
  out="$VOICEAGENT_CACHE/sdkgen/$key"
  if [ ! -x "$out/pulumi-sdkgen" ]; then
    mkdir -p "$VOICEAGENT_CACHE/sdkgen"
    (
      # One build at a time per cache, even when two clones or test files start together.
      flock 9
      if [ ! -x "$out/pulumi-sdkgen" ]; then
        va_log "building pulumi-sdkgen (tools/pulumi/sdkgen) from the Go module proxy"
        local tmp="$out.tmp.$$"
        rm -rf "$tmp" && mkdir -p "$tmp"
        (
          cd "$VOICEAGENT_ROOT/tools/pulumi"
          export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false"
          go build -trimpath -tags osusergo,grpcnotrace -ldflags "-s -w" -o "$tmp/pulumi-sdkgen" ./sdkgen
        ) >&2
        rm -rf "$out" && mv "$tmp" "$out"
      fi
    ) 9>"$VOICEAGENT_CACHE/sdkgen/.lock"
  fi
  printf '%s\n' "$out/pulumi-sdkgen"
}

# va_ensure_sdk_hosts: puts pulumi-language-python and pulumi-language-go (links to pulumi-sdkgen,
# which serves GeneratePackage under those names) in .tools/bin, so `pulumi package gen-sdk
# <schema> --language python|go` works with the pinned CLI; their Run points to the Automation API.
va_ensure_sdk_hosts() {
  local sdkgen lang
  sdkgen="$(va_sdkgen_path)"
  mkdir -p "$VOICEAGENT_TOOLS/bin"
  for lang in python go; do
    if [ "$(readlink "$VOICEAGENT_TOOLS/bin/pulumi-language-$lang" 2>/dev/null)" != "$sdkgen" ]; then
      ln -sf "$sdkgen" "$VOICEAGENT_TOOLS/bin/pulumi-language-$lang"
    fi
  done
}
