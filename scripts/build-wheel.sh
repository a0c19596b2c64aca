#!/usr/bin/env bash
# Builds the pulumi_voiceagent wheel from the committed sdk/python (or SRC) into DIR, offline:
# `npm run pack:python -- DIR [SRC]`. Run through scripts/run.sh (VOICEAGENT_PYTHON: the venv of
# scripts/ensure-python.sh, with setuptools and wheel). The sources are copied first, so the
# build's own folders (build/, *.egg-info) never land in the clone and two builds never share one.
set -euo pipefail
out="${1:?usage: build-wheel.sh DIR [SRC]}"
python="${VOICEAGENT_PYTHON:?run through scripts/run.sh: VOICEAGENT_PYTHON is not set (is python3 installed?)}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "${2:-$root/sdk/python}" "$work/src"
mkdir -p "$out"
"$python" -m pip wheel --quiet --no-deps --no-build-isolation --no-index --wheel-dir "$out" "$work/src" >&2
ls "$out"/pulumi_voiceagent-*.whl
