#!/usr/bin/env bash
# Runs every parser fuzz target (or the ones named) for a bounded time, in a release build.
#
#   scripts/fuzz.sh                 # every target, 60 s each
#   FUZZ_SECONDS=600 scripts/fuzz.sh surveynative fhir
#
# Failing inputs are saved under .build/fuzz-failures/<target>/ with the command that runs each one
# again; a failure found this way belongs in Tests/SurveyReplayFuzzingTests/Regressions/<target>/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

seconds="${FUZZ_SECONDS:-60}"
runs="${FUZZ_RUNS:-100000000}"
seed="${FUZZ_SEED:-1}"

swift build -c release --product survey-replay
swift run -c release --skip-build survey-replay fuzz-parsers --seconds "$seconds" --runs "$runs" --seed "$seed" "$@"
