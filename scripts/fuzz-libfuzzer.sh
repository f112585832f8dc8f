#!/usr/bin/env bash
# Runs the parser fuzz targets under the toolchain's libFuzzer, with AddressSanitizer, for a bounded time.
#
#   scripts/fuzz-libfuzzer.sh               # every target, 60 s each
#   FUZZ_SECONDS=600 scripts/fuzz-libfuzzer.sh fhir
#   FUZZ_RUNS=2000 scripts/fuzz-libfuzzer.sh   # a fixed number of inputs each, seed 1 (what .ci/run does)
#
# The build goes to .build-fuzz (its own scratch path: every module is instrumented). Each target starts
# from the same seeds as 'survey-replay fuzz-parsers' (written by --write-seeds) and keeps what libFuzzer
# learns in .build-fuzz/corpus/<target>/; crashes land in .build-fuzz/artifacts/<target>/. A crash is
# reproduced by passing its file: SURVEY_REPLAY_FUZZ_TARGET=<target> .build-fuzz/debug/survey-replay-fuzz FILE
# (After a change to a struct's layout, SwiftPM's incremental build of the instrumented scratch path has
# been seen to go stale, which ASan reports as a stack-buffer-overflow at startup: remove .build-fuzz.)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

seconds="${FUZZ_SECONDS:-60}"
bound=(-max_total_time="$seconds")
if [ -n "${FUZZ_RUNS:-}" ]; then bound=(-runs="$FUZZ_RUNS" -seed=1); fi
scratch=.build-fuzz

swift build --product survey-replay-fuzz --scratch-path "$scratch" \
  -Xswiftc -DLIBFUZZER -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
fuzzer="$scratch/debug/survey-replay-fuzz"

# The plain build names the targets and writes their seeds.
swift build --product survey-replay
if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(swift run --skip-build survey-replay fuzz-parsers --list | awk '{print $1}')
fi

status=0
for target in "${targets[@]}"; do
  corpus="$scratch/corpus/$target"
  artifacts="$scratch/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  swift run --skip-build survey-replay fuzz-parsers --write-seeds "$corpus" "$target" >/dev/null
  echo "== $target (${bound[*]})"
  SURVEY_REPLAY_FUZZ_TARGET="$target" "$fuzzer" "$corpus" \
    "${bound[@]}" -timeout=10 -rss_limit_mb=4096 -max_len=262144 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 || status=1
done
exit "$status"
