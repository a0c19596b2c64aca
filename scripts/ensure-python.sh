# Sourced by scripts/env.sh. The Python side of the SDK tests and of `npm run pack:python`:
# a virtualenv in .tools/python (git-ignored) holding the Pulumi Python SDK at versions.json's
# `python` (va_version, scripts/ensure-pulumi.sh), which brings the generated pulumi_voiceagent's
# other runtime dependencies (packaging, semver), so the tests install the wheel with --no-deps and
# no index; and setuptools + wheel to build the wheel offline (no build isolation, so nothing is
# fetched while building). Installed with pip from
# PyPI once; redone only when the pins or the machine's python3 change.
# Exports VOICEAGENT_PYTHON (the venv's python) when python3 is on the machine; without
# python3 it only logs, and the Python tests say what is missing.

VOICEAGENT_PY_BUILD_PINS="setuptools==84.2.1 wheel==0.48.0"

va_ensure_python() {
  local venv="$VOICEAGENT_TOOLS/python" system want stamp
  system="$(command -v python3 || true)"
  if [ -z "$system" ]; then
    va_log "python3 not found: the Python SDK tests and the wheel build need Python 3.9+ with venv"
    return 0
  fi
  want="pulumi==$(va_version python) $VOICEAGENT_PY_BUILD_PINS $("$system" --version 2>&1) $system"
  stamp="$venv/.voiceagent-pins"
  if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    local t0
    t0="$(va_now)"
    va_log "installing the Pulumi Python SDK and the wheel build tools into .tools/python"
    rm -rf "$venv"
    # shellcheck disable=SC2086 # the pins are words
    if ! { "$system" -m venv "$venv" >&2 &&
      "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "pulumi==$(va_version python)" $VOICEAGENT_PY_BUILD_PINS >&2; }; then
      # Everything but the Python SDK's wheel and tests works without it: say so and go on.
      rm -rf "$venv"
      va_log "could not set up .tools/python (python3 -m venv, then pip install from PyPI): the Python SDK tests will fail until it can"
      return 0
    fi
    echo "$want" >"$stamp"
    va_log "python ready in $(va_since "$t0")s"
  fi
  export VOICEAGENT_PYTHON="$venv/bin/python"
}
