#!/usr/bin/env bash
# Copies the screenshots the end-to-end and survival tests took (in .e2e-artifacts, or
# $ASKFIRST_E2E_ARTIFACTS, and its lane-K folders) into docs/screenshots, under the names docs/README.md shows.
# Run after `make e2e` (or `make test`). Fails when a test did not take one of them.
set -euo pipefail
cd "$(dirname "$0")/../.."
from="${ASKFIRST_E2E_ARTIFACTS:-.e2e-artifacts}"
to=docs/screenshots
# name in docs  <-  name the test gave it (test that takes it)
pairs=(
  "welcome-folder.png welcome-folder.png"                     # test_folder
  "welcome-who-answers.png welcome-provider.png"              # test_folder
  "folder-line.png folder-line.png"                           # test_folder
  "card-write.png approve-card.png"                           # test_approvals
  "card-command.png command-card-words.png"                   # test_frictions
  "transcript-new-below.png transcript-new-below.png"         # test_frictions
  "alike-moves.png alike-moves.png"                           # test_approvals
  "tray-marked.png tray-marked.png"                           # test_tray_notify
  "card-allow-in-conversation.png session-card.png"           # test_approvals
  "try-first-script-card.png try-first-script-card.png"       # test_try_first
  "try-first-pdf-refused.png try-first-pdf-refused.png"       # test_try_first
  "try-first-500-deleted.png try-first-500-deleted.png"       # test_try_first
  "try-first-activity-undo.png try-first-activity-undo.png"   # test_try_first
  "settings.png settings.png"                                 # test_settings_sessions
  "settings-rules.png settings-rules.png"                     # test_rules
  "settings-rules-form.png settings-rules-form.png"           # test_rules
  "test-connection-works.png connection-works.png"            # test_connection
  "test-connection-key-refused.png connection-key-refused.png"  # test_connection
  "test-connection-nothing-answers.png connection-nothing-answers.png"  # test_connection
  "test-connection-model-not-found.png connection-model-not-found.png"  # test_connection
  "test-connection-no-ollama.png connection-no-ollama.png"    # test_connection
  "error-model-service-refused.png errors-model-service-refused.png"  # test_errors
  "error-model-service-refused-details.png errors-model-service-refused-details.png"
  "error-mcp-server-crashed.png errors-mcp-server-crashed.png"  # test_errors
  "error-mcp-server-crashed-details.png errors-mcp-server-crashed-details.png"
  "error-settings-unreadable.png errors-settings-unreadable.png"  # test_errors
  "error-settings-unreadable-details.png errors-settings-unreadable-details.png"
  "error-folder-refused.png folder-refused.png"               # test_folder
  "error-folder-gone.png folder-gone.png"                     # test_folder
  "error-disk-full.png survival-full-approve-unrecorded.png"  # survival: full data folder
  "error-read-only.png survival-ro-settings.png"              # survival: read-only data folder
  "no-tray-close.png survival-bare-bus-close-kept.png"        # survival: a bus without a tray
)
mkdir -p "$to"
missing=0
for pair in "${pairs[@]}"; do
  read -r name source <<<"$pair"
  # make e2e runs the suite in lanes, each with its own folder (tests/e2e/lanes.sh).
  found=$(ls -t "$from/$source" "$from"/lane-*/"$source" 2>/dev/null | head -1)
  if [[ -n $found ]]; then
    cp "$found" "$to/$name"
  else
    echo "no screenshot $source in $from (its test did not run or did not take it)" >&2
    missing=1
  fi
done
exit "$missing"
