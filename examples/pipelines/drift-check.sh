#!/usr/bin/env bash
# Drift check for any CI: fails when the live voice agent account no longer matches a stack.
#
#   drift-check.sh STACK [PROJECT_DIR]
#
# 1. `pulumi preview --refresh --expect-no-changes --diff`: reads every object the stack manages
#    and fails (exit 7, Pulumi >= 3.227) when an object was edited or deleted outside Pulumi,
#    printing each changed resource and property.
# 2. `voiceagent audit --stack STACK`: what `preview` cannot see, objects the stack does not
#    manage (made in the console, orphaned by a crash) and numbers bound to them.
#
# Credentials: the stack's own config (voiceagent:baseUrl, voiceagent:token as a secret), or
# VOICEAGENT_BASE_URL / VOICEAGENT_TOKEN. The Pulumi backend is whatever PULUMI_BACKEND_URL /
# PULUMI_ACCESS_TOKEN / PULUMI_CONFIG_PASSPHRASE say, as for any pulumi command.
# VOICEAGENT_CLI overrides how the voiceagent command is run (default: npx --no-install voiceagent).
#
# Exit: 0 clean, 3 drift or unmanaged/missing objects found, 1 the check itself failed.
set -uo pipefail

stack="${1:?usage: drift-check.sh STACK [PROJECT_DIR]}"
cd "${2:-.}" || exit 1
read -r -a voiceagent <<<"${VOICEAGENT_CLI:-npx --no-install voiceagent}"

echo "== pulumi preview --refresh --expect-no-changes (stack ${stack})"
pulumi preview --stack "$stack" --refresh --expect-no-changes --diff \
  --non-interactive --suppress-progress --color never
preview=$?

echo
echo "== voiceagent audit (stack ${stack})"
"${voiceagent[@]}" audit --stack "$stack"
audit=$?

echo
problems=()
case "$preview" in
  0) ;;
  7) problems+=("objects changed or deleted outside Pulumi (see the preview above)") ;;
  *) echo "drift-check: ERROR: pulumi preview failed (exit ${preview}); drift is unknown" >&2; exit 1 ;;
esac
case "$audit" in
  0) ;;
  3) problems+=("objects not managed by the stack, or managed but gone (see the audit above)") ;;
  *) echo "drift-check: ERROR: voiceagent audit failed (exit ${audit}); drift is unknown" >&2; exit 1 ;;
esac
if [ "${#problems[@]}" -gt 0 ]; then
  for p in "${problems[@]}"; do echo "drift-check: DRIFT: ${p}"; done
  exit 3
fi
echo "drift-check: clean: stack ${stack} matches the live account"
