#!/usr/bin/env bash
# `npm run pulumi -- <args>`: the pinned CLI with the offline settings of scripts/env.sh, and
# otherwise exactly the plain CLI: it prompts, and uses your own passphrase or secrets provider.
# Only for the emulator stacks our scripts create (listed in .pulumi-home/emulator-stacks, e.g. the
# demo's) does it supply their local passphrase, a random one kept in .pulumi-home (git-ignored).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
registry="$root/.pulumi-home/emulator-stacks"
passfile="$root/.pulumi-home/local-passphrase"

stack_in_args() {
  local prev=""
  for a in "$@"; do
    case "$prev" in -s | --stack) printf '%s\n' "$a"; return 0 ;; esac
    case "$a" in --stack=*) printf '%s\n' "${a#--stack=}"; return 0 ;; esac
    prev="$a"
  done
  return 1
}

if [ -z "${PULUMI_CONFIG_PASSPHRASE:-}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ] && [ -f "$registry" ]; then
  stack="$(stack_in_args "$@" || (cd "$root" && pulumi stack --show-name 2>/dev/null) || true)"
  if [ -n "$stack" ] && grep -qxF "$stack" "$registry" && [ -f "$passfile" ]; then
    export PULUMI_CONFIG_PASSPHRASE_FILE="$passfile"
  fi
fi
exec pulumi "$@"
