#!/usr/bin/env bash
# Builds the libFuzzer targets of the trace readers and of the platform YAML / --set
# parsers with clang (ASan + UBSan) into build-fuzz and runs each for SECONDS seconds
# (default 60). A crash, a sanitizer report or
# an exception other than input_error stops the run and leaves the input in build-fuzz.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}

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
  fuzz_platform_yaml

corpus=build-fuzz/corpus
mkdir -p "$corpus/text" "$corpus/binary" "$corpus/yaml"
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
GPUTLM_FUZZ_SEED_DIR="$corpus/binary" ./build-fuzz/tests/fuzz/fuzz_binary_reader -runs=0 \
  "$corpus/binary" >/dev/null 2>&1 || true

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for target in text binary yaml; do
  exe=fuzz_${target}_reader
  [ "$target" = yaml ] && exe=fuzz_platform_yaml
  echo "== $exe for ${seconds}s"
  (cd build-fuzz && ./tests/fuzz/$exe -max_total_time="$seconds" \
    -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    "corpus/${target}" 2>&1 | tail -n 15)
done
