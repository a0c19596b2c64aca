#!/usr/bin/env bash
# Regenerates the committed SDKs from the committed schema: `npm run gen:sdks`
# (`bash scripts/gen-sdks.sh [OUT [SCHEMA]]` writes them into OUT instead of sdk/, from SCHEMA).
#   provider/schema.json -> sdk/python/ (the Python project) and sdk/go/voiceagent/ (the Go package)
# test/sdk/fresh.test.ts runs the same command into a temporary folder and fails when sdk/ differs.
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
# shellcheck source=scripts/ensure-sdkgen.sh
. "$VOICEAGENT_ROOT/scripts/ensure-sdkgen.sh"
sdkgen="$(va_sdkgen_path)"
# sdk-overlays/python: hand-written modules shipped in the Python package (fleet.py: the Fleet).
"$sdkgen" -schema "${2:-$VOICEAGENT_ROOT/provider/schema.json}" -out "${1:-$VOICEAGENT_ROOT/sdk}" \
  -python-overlay "$VOICEAGENT_ROOT/sdk-overlays/python"
