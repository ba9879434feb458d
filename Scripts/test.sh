#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --oracles
swift test "$@"
