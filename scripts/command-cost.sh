#!/usr/bin/env bash
# What one Pulumi CLI command costs here, each figure the CPU seconds (user + system, the command
# and every process it started) of the median of 3 runs, side by side in one run: CPU time, unlike
# wall time, hardly depends on what else the machine runs. docs/testing.md ("What a CLI command
# costs") shows the figures. Run: bash scripts/run.sh bash scripts/command-cost.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/.pulumi-state/work/command-cost-$$"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/state" "$work/yaml" "$work/js" "$work/ts" "$work/dyn"
export PULUMI_BACKEND_URL="file://$work/state" PULUMI_CONFIG_PASSPHRASE=command-cost
printf 'name: cost-yaml\nruntime: yaml\noutputs:\n  x: 1\n' >"$work/yaml/Pulumi.yaml"
printf 'name: cost-js\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.mjs\n' >"$work/js/Pulumi.yaml"
echo 'import * as pulumi from "@pulumi/pulumi"; export const x = 1;' >"$work/js/index.mjs"
printf 'name: cost-ts\nruntime: nodejs\nmain: index.ts\n' >"$work/ts/Pulumi.yaml"
echo 'import * as pulumi from "@pulumi/pulumi"; export const x = 1;' >"$work/ts/index.ts"
printf 'name: cost-dyn\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.mjs\n' >"$work/dyn/Pulumi.yaml"
cat >"$work/dyn/index.mjs" <<'JS'
import * as pulumi from "@pulumi/pulumi";
const provider = { async create(inputs) { return { id: "one", outs: inputs }; } };
class R extends pulumi.dynamic.Resource { constructor(n, a) { super(provider, n, a, {}); } }
export const v = pulumi.secret(new R("one", { v: "a" }).v);
JS

# cost LABEL DIR COMMAND...: prints the median CPU seconds of 3 runs and their median wall seconds.
cost() {
  local label="$1" dir="$2" cpu=() wall=() i out
  shift 2
  for i in 1 2 3; do
    (cd "$dir" && /usr/bin/time -o "$work/time" -f '%U %S %e' "$@" >/dev/null 2>&1) || true
    out="$(tail -1 "$work/time")"
    cpu+=("$(awk '{ printf "%.2f", $1 + $2 }' <<<"$out")")
    wall+=("$(awk '{ print $3 }' <<<"$out")")
  done
  printf '%-58s %6s CPU s %6s wall s\n' "$label" \
    "$(printf '%s\n' "${cpu[@]}" | sort -n | sed -n 2p)" "$(printf '%s\n' "${wall[@]}" | sort -n | sed -n 2p)"
}

for p in yaml js ts dyn; do (cd "$work/$p" && pulumi stack init dev >/dev/null 2>&1); done
cost "pulumi version" "$work" pulumi version
cost "pulumi config set (plain)" "$work/yaml" pulumi config set a b
cost "pulumi config set --secret (one passphrase KDF)" "$work/yaml" pulumi config set --secret s hush
cost "pulumi config set-all, 2 plain + 1 secret" "$work/yaml" pulumi config set-all --plaintext a=b --plaintext c=d --secret s=hush
cost "pulumi preview, YAML, empty" "$work/yaml" pulumi preview
cost "pulumi preview, JavaScript (typescript: false), empty" "$work/js" pulumi preview
cost "pulumi preview, TypeScript (ts-node), empty" "$work/ts" pulumi preview
cost "pulumi preview, TypeScript, PULUMI_NODEJS_TRANSPILE_ONLY" "$work/ts" env PULUMI_NODEJS_TRANSPILE_ONLY=true pulumi preview
cost "pulumi preview, one dynamic resource (to create)" "$work/dyn" pulumi preview
(cd "$work/dyn" && pulumi up --yes --skip-preview >/dev/null 2>&1)
cost "pulumi preview, one dynamic resource (same)" "$work/dyn" pulumi preview
cost "pulumi preview --refresh, one dynamic resource" "$work/dyn" pulumi preview --refresh
cost "pulumi up, one dynamic resource (same)" "$work/dyn" pulumi up --yes --skip-preview
cost "  Automation API's read-back: stack output --json" "$work/dyn" pulumi stack output --json
cost "  Automation API's read-back: stack output --show-secrets" "$work/dyn" pulumi stack output --json --show-secrets
cost "  Automation API's read-back: stack history --show-secrets" "$work/dyn" pulumi stack history --json --show-secrets --page-size 1
cost "  test stacks' read-back: stack export --show-secrets" "$work/dyn" pulumi stack export --show-secrets
cost "  test stacks' read-back: stack history (masked)" "$work/dyn" pulumi stack history --json --page-size 1
cost "node, import @pulumi/pulumi (NODE_COMPILE_CACHE)" "$work/dyn" node --input-type=module -e 'import "@pulumi/pulumi"'
cost "node, import @pulumi/pulumi (no compile cache)" "$work/dyn" env -u NODE_COMPILE_CACHE node --input-type=module -e 'import "@pulumi/pulumi"'
