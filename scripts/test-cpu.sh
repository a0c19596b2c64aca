#!/usr/bin/env bash
# Where a test file spends CPU: `bash scripts/run.sh bash scripts/test-cpu.sh test/e2e/lines.test.ts`.
# Runs vitest on the given files with `pulumi` and `node` on PATH wrapped by /usr/bin/time, and
# prints the whole run's CPU (user + sys of vitest and every process it waited for), then the CPU
# and wall of the pulumi commands by subcommand and of the Node processes they started (language
# hosts' programs, dynamic providers, the native plugin, ts-node) by script. CPU, not wall: the
# machine is shared, and wall time there measures the neighbours. Logs stay in $TEST_CPU_DIR
# (a new temporary folder unless set). Run one CLI test file at a time, or several one after another
# with `--maxWorkers 1` (the files of one run share its prepared npm installs).
set -euo pipefail
[ "$#" -gt 0 ] || { echo "usage: bash scripts/run.sh bash scripts/test-cpu.sh TEST_FILE..." >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "test-cpu.sh needs /usr/bin/time (GNU time)" >&2; exit 2; }
out="${TEST_CPU_DIR:-$(mktemp -d -t va-test-cpu-XXXXXX)}"
mkdir -p "$out/bin"
: >"$out/pulumi.log"
: >"$out/node.log"
for tool in pulumi node; do
  real="$(command -v "$tool")"
  cat >"$out/bin/$tool" <<EOF
#!/usr/bin/env bash
t="\$(mktemp)"
/usr/bin/time -f "%e %U %S" -o "\$t" "$real" "\$@"
rc=\$?
a="\$*"
printf '%s %s\n' "\$(tail -1 "\$t")" "\${a:0:300}" >>"$out/$tool.log"
rm -f "\$t"
exit \$rc
EOF
  chmod +x "$out/bin/$tool"
done
node="$(command -v node)"
PATH="$out/bin:$PATH" /usr/bin/time -f "%e %U %S" -o "$out/total" "$node" node_modules/vitest/vitest.mjs run "$@" >"$out/vitest.out" 2>&1 || true
sed 's/\x1b\[[0-9;]*m//g' "$out/vitest.out" | grep -E '^ *(✓|×|❯) test/|Test Files|Tests ' || true
read -r wall user sys <"$out/total"
awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "whole run: wall %.1f s, CPU %.1f s (user %.1f + sys %.1f)\n", w, u + s, u, s }'
echo "pulumi commands (CPU and wall include the processes each started):"
awk '{ k = $4; if ($5 !~ /^-/ && ($4 == "stack" || $4 == "config" || $4 == "plugin" || $4 == "package")) k = k " " $5
       n[k]++; c[k] += $2 + $3; w[k] += $1; tc += $2 + $3; tn++ }
     END { for (k in n) printf "  %-22s n=%4d cpu=%7.1f wall=%7.1f\n", k, n[k], c[k], w[k]
           printf "  %-22s n=%4d cpu=%7.1f\n", "(all)", tn, tc }' "$out/pulumi.log" | sort -t= -k3 -rn
echo "node processes started through PATH (by script):"
awk '{ k = $4; if (k ~ /^-/) k = k " …"; sub(/.*node_modules\//, "", k); n[k]++; c[k] += $2 + $3 }
     END { for (k in n) printf "  %-60s n=%4d cpu=%7.1f\n", k, n[k], c[k] }' "$out/node.log" | sort -t= -k3 -rn | head -15
echo "logs: $out"
