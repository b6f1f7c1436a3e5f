#!/usr/bin/env bash
# Builds the libFuzzer targets of the trace readers, the platform YAML / --set parsers, the
# experiment file and the SPU kernel note with clang (ASan + UBSan) into build-fuzz and runs
# each for SECONDS seconds (default 60); TARGETS (default all: text binary yaml experiment
# spu_note) picks some. A crash, a sanitizer report or
# an exception other than input_error stops the run and leaves the input in build-fuzz.
#   scripts/fuzz.sh [SECONDS [TARGETS...]]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(text binary yaml experiment spu_note)

need=()
command -v clang++ >/dev/null || need+=(clang)
dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q "install ok installed" ||
  need+=(libclang-rt-14-dev)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
./scripts/install-deps.sh

cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGPUTLM_FUZZ=ON -DGPUTLM_SANITIZE=ON -DGPUTLM_BENCH=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzz_text_reader fuzz_binary_reader \
  fuzz_platform_yaml fuzz_experiment_spec fuzz_spu_note

corpus=build-fuzz/corpus
mkdir -p "$corpus/text" "$corpus/binary" "$corpus/yaml" "$corpus/experiment" "$corpus/spu_note"
# Experiment seeds: the shipped experiments, their platforms renamed to the copy of
# yaml/fermi.yaml beside the fuzzed file, their mechanisms to a copy of slumber.yaml and
# their traces to the copied sample.
for f in yaml/experiments/*.yaml; do
  sed -E 's#\.\./mechanisms/[a-z0-9_.-]*\.yaml#mech.yaml#g; s#\.\./[a-z0-9_/.-]*\.yaml#fermi.yaml#g;
    s#trace: *[^,}]*#trace: trace#' "$f" >"$corpus/experiment/$(basename "$f")"
done
# SPU note seeds: the sample's note, a global-sync note and two kernels' notes.
printf 'spu kernel=1 n=64 k=32 b=16 s=4 sync=pairwise iu=none barriers=0 a=0x7f0000000000 north=0x7f0000004000 west=0x7f0000006000 out=0x7f0000008000 east=0x7f000000c000 south=0x7f000000e000\n' \
  >"$corpus/spu_note/sample"
printf 'spu kernel=2 n=256 k=256 b=32 s=4 sync=global iu=ring barriers=8 a=0 north=1 west=2 out=3 east=4 south=5\nother note\nspu kernel=3 n=128 k=64 b=16 s=1 sync=pairwise iu=none barriers=0 a=0x10 north=0x20 west=0x30 out=0x40 east=0x50 south=0x60\n' \
  >"$corpus/spu_note/two"
# Text seeds: every hand-written kernel trace in the test snippets and samples, prefixed
# by the selector byte (0: the bytes are a kernel file).
for f in traces/samples/*/kernel-*.traceg tests/fuzz/seeds/*.traceg; do
  [ -f "$f" ] || continue
  [ "$(stat -c %s "$f")" -lt 65536 ] || continue
  { printf '\x00'; cat "$f"; } >"$corpus/text/$(echo "$f" | tr '/' '_')"
done
# Platform seeds: every shipped platform and variant (selector 0), and --set arguments
# (selector 1) from the docs' examples.
for f in yaml/*.yaml yaml/variants/*.yaml; do
  { printf '\x00'; sed 's#^base: \.\./[a-z]*\.yaml#base: fermi.yaml#' "$f"; } \
    >"$corpus/yaml/$(echo "$f" | tr '/' '_')"
done
for s in 'smx[3].l1.hit_latency=7cycles' 'smx.count=16' 'clocks.core.frequency=800MHz' \
  'smx_scheduler.policy=rb_ts' 'power.policy={type: idle_timeout, after: 1000cycles}' \
  'gpu.bind=[a -> b[i/2]]'; do
  printf '\x01%s' "$s" >"$corpus/yaml/set_$(echo "$s" | md5sum | cut -c1-8)"
done
export GPUTLM_FUZZ_BASE="$PWD/yaml/fermi.yaml"
export GPUTLM_FUZZ_TRACE="$PWD/traces/samples/vectoradd"
export GPUTLM_FUZZ_MECH="$PWD/yaml/mechanisms/slumber.yaml"
GPUTLM_FUZZ_SEED_DIR="$corpus/binary" ./build-fuzz/tests/fuzz/fuzz_binary_reader -runs=0 \
  "$corpus/binary" >/dev/null 2>&1 || true

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for target in "${targets[@]}"; do
  case "$target" in
    text | binary) exe=fuzz_${target}_reader ;;
    yaml) exe=fuzz_platform_yaml ;;
    experiment) exe=fuzz_experiment_spec ;;
    spu_note) exe=fuzz_spu_note ;;
    *) echo "unknown target '$target' (text binary yaml experiment spu_note)" >&2; exit 2 ;;
  esac
  echo "== $exe for ${seconds}s"
  (cd build-fuzz && ./tests/fuzz/$exe -max_total_time="$seconds" \
    -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    "corpus/${target}" 2>&1 | tail -n 15)
done
