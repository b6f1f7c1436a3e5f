#!/usr/bin/env bash
# Installs gputlm's build and test dependencies from Debian packages.
# Idempotent: silent and fast when everything is already present.
set -euo pipefail

packages=(
  build-essential cmake pkg-config make
  ninja-build               # the build tool of new build folders (Makefile)
  lld                       # a faster linker for the programs and their debug information
  libsystemc-dev            # SystemC 2.3.4 + TLM-2.0 (pkg-config systemc, tlm)
  libyaml-cpp-dev           # platform and experiment YAML
  libboost-dev libboost-program-options-dev libboost-iostreams-dev
  libboost-graph-dev        # locality graphs: Prim's maximum spanning tree (PAVER)
  libmetis-dev              # locality graphs: k-way partitioning and bisection (PAVER)
  nlohmann-json3-dev        # statistics JSON
  libfmt-dev                # formatting
  libzstd-dev liblzma-dev zlib1g-dev   # trace compression (binary blocks, .xz, .gz)
  libxxhash-dev             # trace checksums, content keys of the experiment caches
  python3-matplotlib        # experiment plots (scripts/plot-experiment.py)
  python3-pandas            # tables of python/gputlm (docs/experiments.md)
  graphviz                  # dot, to draw `gputlm elaborate --dot` (docs/platforms.md)
  slurm-wlm munge           # experiments on a Slurm cluster (tests start a local one)
  googletest libgtest-dev libgmock-dev
  libbenchmark-dev
  verilator                 # RTL co-simulation: rtl/ Verilated (docs/rtl.md)
)

missing=()
for p in "${packages[@]}"; do
  # dpkg-query prints "install ok installed" for an installed package
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
