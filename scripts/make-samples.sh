#!/usr/bin/env bash
# Regenerates the bundled sample traces, traces/samples/<kernel>/, with the kernel
# generators (docs/traces.md, "Generators"). The output is deterministic: running this again
# gives byte-identical files.
#
# Uses `gputlm trace gen` from BUILD_DIR (built if missing).
# Usage: scripts/make-samples.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${1:-${BUILD:-build}}
OUT=traces/samples
if [ ! -x "$BUILD/sc_main/gputlm" ]; then
  cmake -S . -B "$BUILD" >/dev/null
  cmake --build "$BUILD" --target gputlm -j "$(nproc)" >/dev/null
fi
gen=("$BUILD/sc_main/gputlm" trace gen)

# sample <name> <kernel> [--param k=v]... [--arch N]
sample() {
  local name=$1 kernel=$2
  shift 2
  rm -rf "${OUT:?}/$name"
  "${gen[@]}" "$kernel" "$@" -o "$OUT/$name"
  echo "$OUT/$name: $(du -sh "$OUT/$name" | cut -f1)"
}

mkdir -p "$OUT"
# The `make demo` default (Volta): 40 TBs of 256 threads, the last one partly masked.
sample vectoradd   vectoradd   --param n=10000 --arch 70
sample stencil2d   stencil2d   --param nx=64 --param ny=64
sample sgemm_tiled sgemm_tiled --param M=32 --param N=32 --param K=32 --param tile=16
sample bfs         bfs         --param scale=8 --param degree=8 --param seed=1 --param block=64
sample spmv        spmv        --param rows=256 --param alpha=1.5 --param max_row=128
sample reduction   reduction   --param n=4096 --param block=256
sample histogram   histogram   --param n=16384 --param bins=256 --param grid=16
sample bfs_cdp     bfs_cdp     --param scale=8 --param degree=8 --param threshold=16 \
  --param block=64
# The same graph with DTBL: groups of 64 threads coalescing into the level kernel.
sample bfs_dtbl    bfs_dtbl    --param scale=8 --param degree=8 --param threshold=16 \
  --param block=64
# Recursive refinement with CDP.SYNC: parents wait for their children (context saved).
sample amr_cdp_sync amr_cdp    --param cells=64 --param sync=1 --param block=64
# One pass of the thesis' 4 x 4 SPU: 4 x 4 CTAs of 16 x 16 x 16 tiles, 2 tiles along k; the
# interface units are the platform's (yaml/spu.yaml), as its runtime wants.
sample spu_stencil spu_stencil --param n=64 --param k=32 --param b=16 --param s=4 --param iu=none
echo "make-samples: $(du -sh "$OUT" | cut -f1) in $OUT"
