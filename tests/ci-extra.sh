#!/usr/bin/env bash
# CI beyond the README's build and tests: the whole test suite built with AddressSanitizer and
# UndefinedBehaviorSanitizer, then bounded libFuzzer runs on the scenario loader and the
# --set/--vary parsers, and on the commands' output-path checks.  One clang build serves both
# (PCISIM_SANITIZE + PCISIM_FUZZ).
#
#   bash tests/ci-extra.sh [BUILD_DIR]        (default: build/sanitize)
#   PCISIM_FUZZ_RUNS=N                        scenario fuzz inputs to try (default 12000, in
#                                             two campaigns of half as many)
#   PCISIM_FUZZ_SECONDS=N                     fuzzing time cap per campaign (default 120, about
#                                             five times what 6000 inputs take on a quiet
#                                             core: the input counts bound a CI run)
#   PCISIM_FUZZ_OUTPUT_RUNS=N                 output-path fuzz inputs (default 4000)
#
# The fuzz runs have fixed seeds and fixed numbers of inputs, so CI sees the same inputs every
# time: a new crash shows up in a change that causes it, not at random.  Run it longer by hand
# (PCISIM_FUZZ_RUNS=0 fuzzes until the time cap) to look for new crashes.
#
# A crash found by the fuzzer is left as BUILD_DIR/fuzz-crash-*: fix it, then keep the input
# in tests/fuzz/crashers/ so the test suite replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/sanitize}
fuzz_runs=${PCISIM_FUZZ_RUNS:-12000}
fuzz_seconds=${PCISIM_FUZZ_SECONDS:-120}

# SystemC runs each SC_THREAD on a coroutine stack of its own (QuickThreads) that ASan does not
# know: use-after-return fake stacks would be torn across the switches, so that check is off,
# and the build has no stack redzones (CMakeLists.txt says why).  Every other ASan and UBSan
# check stays on, and any report fails the run.
# malloc_context_size=0: a report names the bad access's own stack but not where the block was
# allocated and freed.  Recording those two stacks at every malloc and free wrote to ASan's
# stack table, one page fault at a time in each of the forked workers of validate and sweep,
# and cost the sanitized suite about a tenth of its time (179 -> 160 s, 129 -> 104 s system).
# To see them, run the failing test again with ASAN_OPTIONS=malloc_context_size=30.
export ASAN_OPTIONS=detect_stack_use_after_return=0:abort_on_error=1:strict_string_checks=1:malloc_context_size=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# -O1 and line tables only: the sanitizer build compiles about 16 % faster than at -O2 -g and
# its reports still name file and line; the tests run a little slower.  A unity build (32
# sources a compilation) parses the heavy headers (SystemC, nlohmann/json, Catch2) and
# instantiates their templates once per 32 files.
# Ninja, as the README's build: a target's files compile while the libraries it links still do.
generator=(-G Ninja)
[ -f "$build/CMakeCache.txt" ] && generator=()  # a build directory keeps its generator
CC=clang CXX=clang++ cmake "${generator[@]}" -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_UNITY_BUILD=ON \
    -DPCISIM_SANITIZE=ON -DPCISIM_FUZZ=ON
cmake --build "$build" -j2
# Every test but the three that only compare simulated numbers bit for bit, which the README's
# build has just done: the timing baseline (two minutes under the sanitizers) and the two
# shortcut-equivalence runs (68 and 29 s). The calibration set still runs here, in the validate
# test, and every other run goes through the same shortcuts. Nor the four figure tests that
# run only Python on files they write themselves (no pcisim): here they would run the same
# Python again, about 13 s of the suite.
bit_for_bit="baseline's simulated values|the same (results )?with and without the"
python_only="^plots/(regenerate (draws the errors|works without fits)|figures |tcp )"
ctest --test-dir "$build" -j2 --output-on-failure -E "$bit_for_bit|$python_only"

# New inputs go to scratch corpora; the committed seeds in tests/fuzz/corpus stay as they are.
# The fuzzer runs on one core: two campaigns from seeds 1 and 2, each with half the inputs, run
# side by side, one per core.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
runs=()
[ "$fuzz_runs" -gt 0 ] && runs=(-runs=$(( (fuzz_runs + 1) / 2 )))
fuzz_scenario() {  # seed
    mkdir "$scratch/seed-$1"
    "$build/pcisim_fuzz_scenario" -seed="$1" "${runs[@]}" -max_total_time="$fuzz_seconds" \
        -timeout=10 -max_len=4096 \
        -print_final_stats=1 -artifact_prefix="$build/fuzz-" \
        "$scratch/seed-$1" tests/fuzz/corpus tests/fuzz/crashers > "$scratch/seed-$1.log" 2>&1
}
fuzz_scenario 1 & first=$!
fuzz_scenario 2 & second=$!
status=0
wait "$first" || status=$?
cat "$scratch/seed-1.log"
wait "$second" || status=$?
cat "$scratch/seed-2.log"
[ "$status" -eq 0 ] || exit "$status"
# The output-path checks: every output they let pass is written, and no input or other output
# may change (tests/fuzz/output_paths_input.h).  A file system round per input: fewer inputs.
mkdir "$scratch/outputs"
"$build/pcisim_fuzz_output_paths" -seed=1 -runs="${PCISIM_FUZZ_OUTPUT_RUNS:-4000}" \
    -max_total_time="$fuzz_seconds" -timeout=10 -max_len=512 \
    -print_final_stats=1 -artifact_prefix="$build/fuzz-outputs-" \
    "$scratch/outputs" tests/fuzz/outputs-corpus
