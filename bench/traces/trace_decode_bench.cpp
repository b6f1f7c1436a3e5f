// Decoding speed of one synthetic application from Accel-Sim text and from the gputlm
// binary form, in warp instructions per second. The input is generated here with the text
// writer (308k warp instructions) so the figures do not depend on samples. Two mixes:
//   0 typical: 29% memory instructions, of which one in seven is a scattered gather
//   1 scatter: 56% memory instructions, one in five scattered (worst case for both decoders)
//   2 compute: 12.5% memory instructions, all coalesced (like a tiled SGEMM)
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include "traces/trace_cli.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace {

namespace fs = std::filesystem;
using namespace gputlm::traces;

struct fixture {
  fs::path dir;
  std::string text, binary;
  std::uint64_t insts = 0;
  std::uint64_t text_bytes = 0, binary_bytes = 0;

  int m_mix;

  explicit fixture(int mix) : m_mix(mix) {
    dir = fs::temp_directory_path() /
          ("gputlm-trace-bench-" + std::to_string(::getpid()) + "-" + std::to_string(mix));
    fs::remove_all(dir);
    text = (dir / "text").string();
    binary = (dir / "app.gtb").string();
    write_synthetic();
    auto in = open_trace(text, {});
    auto out = make_binary_writer(binary);
    copy_trace(*in, *out);
    for (auto& e : fs::directory_iterator(text)) text_bytes += e.file_size();
    binary_bytes = fs::file_size(binary);
  }
  ~fixture() { fs::remove_all(dir); }

  void write_synthetic() {
    opcode_table ops(70);
    const std::uint16_t ffma = ops.intern("FFMA"), imad = ops.intern("IMAD.MOV.U32"),
                        ldg = ops.intern("LDG.E.SYS"), stg = ops.intern("STG.E.SYS"),
                        lds = ops.intern("LDS.U.128"), bra = ops.intern("BRA"),
                        exit_op = ops.intern("EXIT");
    kernel_info k;
    k.name = "_Z9syntheticPfS_";
    k.id = 1;
    k.grid = {16, 8, 1};
    k.block = {256, 1, 1};
    k.binary_version = 70;
    k.tracer_version = 4;
    k.lineinfo = true;
    k.shmem_base = 0x00007f2c60000000;
    std::mt19937_64 rng(7);
    auto w = make_text_writer(text);
    w->memcpy_h2d(0x7f0000000000, 1 << 20);
    w->begin_kernel(k);
    for (std::uint32_t t = 0; t < k.grid.count(); ++t) {
      tb_trace tb;
      tb.linear_id = t;
      tb.index = {t % 16, t / 16, 0};
      tb.warps.resize(8);
      for (std::uint32_t wi = 0; wi < 8; ++wi) {
        warp_trace& wt = tb.warps[wi];
        for (std::uint32_t i = 0; i < 300; ++i) {
          warp_instruction in;
          in.pc = 16 * i;
          in.line = 10 + i / 4;
          in.active_mask = i % 7 == 0 ? std::uint32_t(rng()) | 1u : 0xffffffffu;
          in.num_dst = 1;
          in.dst[0] = std::uint16_t(i % 64);
          in.num_src = 2;
          in.src[0] = std::uint16_t((i + 1) % 64);
          in.src[1] = std::uint16_t((i + 7) % 64);
          // kinds: 0 coalesced load, 1 coalesced store, 2 shared load, 3 scattered load
          int kind;
          if (m_mix == 1) {
            int c = int(i % 9);
            kind = c < 2 ? 0 : c == 2 ? 3 : c == 3 ? 1 : c == 4 ? 2 : c == 5 ? 5 : 6;
          } else if (m_mix == 2) {
            int c = int(i % 24);
            kind = c == 0 ? 0 : c == 6 ? 1 : c == 12 ? 2 : c % 12 == 4 ? 5 : 6;
          } else {
            int c = int(i % 24);
            kind = c % 12 < 3 ? c % 12 : c == 3 ? 3 : c % 12 == 4 ? 5 : 6;
          }
          std::uint16_t op = kind == 0 || kind == 3 ? ldg
                             : kind == 1            ? stg
                             : kind == 2            ? lds
                             : kind == 5            ? imad
                             : i % 27 == 8          ? bra
                                                    : ffma;
          in.opcode = op;
          in.unit = ops[op].unit;
          in.space = ops[op].space;
          if (op == ldg || op == stg || op == lds) {
            in.access_size = op == lds ? 16 : 4;
            in.addr_index = std::uint32_t(wt.addresses.size());
            std::uint64_t base = (op == lds ? k.shmem_base : 0x7f0000000000ull) +
                                 (std::uint64_t(t) * 8 + wi) * 4096 + 128 * i;
            int n = __builtin_popcount(in.active_mask);
            for (int l = 0; l < n; ++l) {
              std::uint64_t a = kind == 3 ? 0x7f0000000000ull + (rng() % (1u << 24)) * 4
                                          : base + std::uint64_t(l) * in.access_size;
              wt.addresses.push_back(a);
            }
          }
          wt.insts.push_back(in);
          ++insts;
        }
        warp_instruction e;
        e.pc = 16 * 300;
        e.active_mask = 0xffffffffu;
        e.opcode = exit_op;
        e.unit = unit_class::exit;
        e.special = special_op::exit;
        wt.insts.push_back(e);
        ++insts;
      }
      w->write_tb(tb, ops);
    }
    w->end_kernel();
    w->finish();
  }
};

fixture& data(int mix) {
  static fixture typical(0), scattered(1), compute(2);
  return mix == 1 ? scattered : mix == 2 ? compute : typical;
}

// Args: read-ahead capacity (0 = decode on the calling thread), mix (see the top).
void decode(benchmark::State& state, const std::string& path) {
  open_options o;
  o.read_ahead = std::size_t(state.range(0));
  std::uint64_t insts = 0;
  for (auto _ : state) {
    auto app = open_trace(path, o);
    kernel_reader& k = app->kernel(1);
    for (std::uint32_t id = 0; id < k.tb_count(); ++id) {
      auto tb = k.read_tb(id);
      for (const auto& w : tb->warps) insts += w.insts.size();
      benchmark::DoNotOptimize(tb.get());
    }
  }
  state.counters["insts/s"] = benchmark::Counter(double(insts), benchmark::Counter::kIsRate);
}

void BM_decode_text(benchmark::State& state) {
  const fixture& f = data(int(state.range(1)));
  decode(state, f.text);
  state.counters["warp_insts"] = double(f.insts);
  state.counters["file_MB"] = double(f.text_bytes) / 1e6;
}
void BM_decode_binary(benchmark::State& state) {
  const fixture& f = data(int(state.range(1)));
  decode(state, f.binary);
  state.counters["warp_insts"] = double(f.insts);
  state.counters["file_MB"] = double(f.binary_bytes) / 1e6;
}

BENCHMARK(BM_decode_text)
    ->ArgsProduct({{0, 32}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_decode_binary)
    ->ArgsProduct({{0, 32}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
