#!/usr/bin/env bash
# Packs the Go SDK module (sdk/, module github.com/pulumi-voiceagent/pulumi-voiceagent/sdk) at
# VERSION into PROXY, a folder that `GOPROXY=file://PROXY,<your proxy>` serves as a module proxy:
# `bash scripts/pack-go-sdk.sh v0.2.0 /tmp/goproxy`. Prints nothing; see pulumi-sdkgen pack-go.
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
# shellcheck source=scripts/ensure-sdkgen.sh
. "$VOICEAGENT_ROOT/scripts/ensure-sdkgen.sh"
"$(va_sdkgen_path)" pack-go -dir "$VOICEAGENT_ROOT/sdk" -version "${1:?usage: pack-go-sdk.sh VERSION PROXY}" \
  -proxy "${2:?usage: pack-go-sdk.sh VERSION PROXY}"
