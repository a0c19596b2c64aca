#!/usr/bin/env bash
# Counts the Pulumi CLI invocations of a command (a test file's run, load-independent, unlike its
# seconds): `bash scripts/count-pulumi.sh <log> <command> [args...]` puts a `pulumi` on PATH that
# appends its arguments to <log> and execs the real one (same process, so signals, the bundled
# plugins found beside the executable, and exit codes are the real CLI's), then prints the count
# per subcommand. A line starting with [transpile-only] ran with PULUMI_NODEJS_TRANSPILE_ONLY set. Run it under scripts/run.sh, e.g.
#   bash scripts/run.sh bash scripts/count-pulumi.sh /tmp/calls.log vitest run test/e2e/recover.test.ts
set -euo pipefail
log="$(realpath -m "$1")"
shift
real="$(command -v pulumi)"
shim="$(mktemp -d)"
trap 'rm -rf "$shim"' EXIT
cat >"$shim/pulumi" <<SHIM
#!/usr/bin/env bash
printf '%s%s\n' "\${PULUMI_NODEJS_TRANSPILE_ONLY:+[transpile-only] }" "\$*" >>"$log"
exec "$real" "\$@"
SHIM
chmod +x "$shim/pulumi"
: >"$log"
status=0
PATH="$shim:$PATH" "$@" || status=$?
echo "pulumi invocations: $(wc -l <"$log")" >&2
awk '{ sub(/^\[transpile-only\] /, ""); sub(/ --stack.*/, ""); print $1 ($2 ~ /^[a-z-]+$/ ? " " $2 : "") }' "$log" | sort | uniq -c | sort -rn >&2
exit "$status"
