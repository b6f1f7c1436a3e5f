// Simulation speed of the memory side: 15 generators (GTX480's SMXs) stream loads and
// stores through L1 -> crossbar -> L2 -> DRAM built from yaml/fermi.yaml. Prints simulated
// requests per wall-clock second and the simulated DRAM bandwidth.
// Usage: bench_memory [REQUESTS_PER_SMX [FOOTPRINT_LINES [rw|atomic]]]
//   rw (default): 128 B loads, one in five a store; atomic: 32 B atomics (one sector each,
//   answered by the L2 as histogram's RED.E.ADD are), the path an atomic-heavy kernel takes.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>

#include "tests/memory/hierarchy.h"

using namespace gputlm;
using namespace gputlm::test;

int sc_main(int argc, char** argv) {
  const std::size_t per = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20000;
  const std::uint64_t footprint = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1u << 19;
  const std::string mix = argc > 3 ? argv[3] : "rw";
  if (mix != "rw" && mix != "atomic") {
    std::fprintf(stderr, "bench_memory: mix must be rw or atomic, not '%s'\n", mix.c_str());
    return 2;
  }
  const bool atomics = mix == "atomic";
  std::mt19937_64 rng(1);
  std::vector<std::vector<tg_request>> scripts(15);
  for (auto& s : scripts) {
    s.reserve(per);
    for (std::size_t k = 0; k < per; ++k) {
      tg_request r;
      if (atomics) {
        r.addr = (rng() % (footprint * 4)) * 32;
        r.length = 32;
        r.sectors = 0;
        r.kind = access_kind::atomic;
      } else {
        r.addr = (rng() % footprint) * 128;
        r.length = 128;
        r.sectors = 0xf;
        r.kind = rng() % 5 == 0 ? access_kind::global_store : access_kind::global_load;
      }
      s.push_back(r);
    }
  }
  hierarchy h("yaml/fermi.yaml", std::move(scripts));
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  sc_core::sc_start();
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::size_t done = h.completed();
  std::uint64_t dram_bytes = 0;
  for (auto& d : h.dram) dram_bytes += d->stats_view().bytes.value();
  const double sim_s = sc_core::sc_time_stamp().to_seconds();
  std::printf(
      "requests %zu, cpu %.3f s (wall %.3f s), %.0f simulated requests per cpu second, "
      "simulated time %.1f us, DRAM %.1f GB/s, payloads in use %zu\n",
      done, cpu, wall, double(done) / cpu, sim_s * 1e6, double(dram_bytes) / sim_s / 1e9,
      h.payloads_in_use());
  return done == 15 * per && h.payloads_in_use() == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
