#!/usr/bin/env bash
# Builds the readers' libFuzzer targets (clang, ASan+UBSan, coverage on the readers, the
# analysis and the exporters too: the trace targets run the whole pipeline on what they decode)
# in build/fuzz (or $STARSCOPE_FUZZ_BUILD) and runs each for SECONDS (default 60). Prints per
# target the executions run and the crashes found, each confirmed by running its input again
# alone; crashing inputs are left in <build>/fuzz-out/<target>/crashes/, the others in unconfirmed/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: fxt paje native ranks idx; default all)
# ranks damages both ranks of a real 2-rank job at once (tests/hardening/fuzz/ranks_fuzzer.cpp).
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${STARSCOPE_FUZZ_BUILD:-$root/build/fuzz}"
flags="-fsanitize=fuzzer-no-link,address,undefined"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSTARSCOPE_BUILD_VIEWER=OFF -DSTARSCOPE_BUILD_BENCH=OFF -DSTARSCOPE_BUILD_FUZZERS=ON \
  "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_C_FLAGS=$flags" >/dev/null
shift || true
targets=(fxt paje native ranks idx)
if [ $# -gt 0 ]; then targets=("$@"); fi
cmake --build "$build" -j2 --target $(for t in "${targets[@]}"; do echo "starscope_${t}_fuzzer"; done)

small="$root/tests/data/tracer/small"
seeds="$root/tests/data/hardening/seeds"
regressions="$root/tests/data/hardening"
declare -A seedFiles=(
  [fxt]="$small/prof_file__0"
  [paje]="$small/paje.trace"
  [native]="$seeds/small.sstrace"
  [ranks]="$seeds/ranks13.damage $seeds/ranks14.damage"
  [idx]="$seeds/small-images-idx3-ubyte $seeds/small-labels-idx1-ubyte"
)
out="$build/fuzz-out"
summary=()
for t in "${targets[@]}"; do
  corpus="$out/$t/corpus"
  crashes="$out/$t/crashes"
  # Crashes are counted per run: keep the ones worth keeping under tests/data/hardening/<target>/.
  rm -rf "$crashes" "$out/$t/unconfirmed"
  mkdir -p "$corpus" "$crashes"
  for s in ${seedFiles[$t]}; do cp -f "$s" "$corpus/"; done
  # Earlier crashing inputs stay in the corpus so a regression shows at once.
  if [ -d "$regressions/$t" ]; then cp -f "$regressions/$t"/* "$corpus/" 2>/dev/null || true; fi
  log="$out/$t/log.txt"
  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$build/tests/hardening/fuzz/starscope_${t}_fuzzer" "$corpus" \
      -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$crashes/" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      >"$log" 2>&1 || true
  # In fork mode the parent sums the children's executions in its status lines.
  execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  # Fork mode can leave inputs in the crash folder that its own summary does not count (58 of
  # them on a loaded machine, none failing again): an input counts once it fails when run alone.
  found=0
  unconfirmed=0
  for input in "$crashes"/*; do
    [ -f "$input" ] || continue
    if ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        timeout 60 "$build/tests/hardening/fuzz/starscope_${t}_fuzzer" "$input" >/dev/null 2>&1; then
      mkdir -p "$out/$t/unconfirmed"
      mv "$input" "$out/$t/unconfirmed/"
      unconfirmed=$((unconfirmed + 1))
    else
      found=$((found + 1))
    fi
  done
  summary+=("$(printf '%-7s executions: %-10s crashes found: %s (%s more left no failure when run again)' \
    "$t" "${execs:-0}" "$found" "$unconfirmed")")
done
printf '%s\n' "${summary[@]}"
