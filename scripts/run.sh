#!/usr/bin/env bash
# Runs a command with the project's toolchain: `bash scripts/run.sh <command> [args...]`.
# Every npm script goes through here, so each works on a fresh clone with nothing installed.
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
va_setup
cd "$VOICEAGENT_ROOT"
exec "$@"
