#!/usr/bin/env bash
# Builds an optimised `gputlm` for long runs: link-time optimisation and profile-guided
# optimisation (GCC), the profile taken from training runs of generated workloads on every
# bundled platform. The training set is not the bundled samples nor the inputs of
# bench/core/replay_speed.sh: other sizes, and the generators the samples do not use.
# Statistics are byte-identical to the plain build's (same sources; docs/performance.md).
# Usage: scripts/build-fast.sh [BUILD_DIR]     (default build-fast; the binary is
#        BUILD_DIR/sc_main/gputlm). About twice a plain build's time, plus a minute of training.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fast}
jobs=${JOBS:-$(nproc)}
configure() {
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON \
    -DGPUTLM_BENCH=OFF -DGPUTLM_PGO="$1" >/dev/null
}

echo "build-fast: instrumented build in $build"
configure generate
cmake --build "$build" -j "$jobs" --target gputlm >/dev/null
find "$build" -name '*.gcda' -delete  # counts of an earlier training

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$build/sc_main/gputlm"
gen() {  # NAME KERNEL PARAMS...: a binary trace in $work/NAME.gtb
  local name=$1 kernel=$2
  shift 2
  local params=()
  for p in "$@"; do params+=(-p "$p"); done
  "$bin" trace gen "$kernel" "${params[@]}" -o "$work/$name" >/dev/null
  "$bin" trace convert "$work/$name" "$work/$name.gtb" >/dev/null
}
echo "build-fast: training"
gen vectoradd vectoradd n=200000
gen stencil2d stencil2d nx=192 ny=192
gen spu_stencil spu_stencil n=64 b=16 iu=none
gen sgemm_naive sgemm_naive M=96 N=96 K=96
gen sgemm_tiled sgemm_tiled M=128 N=128 K=128
gen syrk syrk
gen bfs bfs seed=2
gen bfs_cdp bfs_cdp seed=2
gen bfs_dtbl bfs_dtbl seed=2
gen spmv spmv seed=2
gen spmv_dtbl spmv_dtbl seed=2
gen reduction reduction
gen histogram histogram seed=2
for p in yaml/*.yaml; do
  for t in "$work"/*.gtb; do
    # (The SPU's kernel runs on the SPU only: elsewhere its CB and block-sync instructions
    # are bad input.)
    [[ $t == */spu_stencil.gtb && $p != yaml/spu.yaml ]] && continue
    "$bin" run "$p" "$t" --no-tb-log --stats "$work/stats.json" >/dev/null
  done
done

echo "build-fast: optimised build in $build"
configure use
cmake --build "$build" -j "$jobs" --target gputlm >/dev/null
echo "build-fast: $bin"
