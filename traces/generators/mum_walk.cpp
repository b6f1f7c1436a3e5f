// A MUMmerGPU-like suffix-tree walk (LATOA's MUM; Schatz et al., "High-throughput sequence
// alignment using graphics processing units", BMC Bioinformatics 2007; GPGPU-Sim ISPASS'09
// suite): one thread per query read walks a tree of the reference from the root, reading its
// next base (`LDG.U8 queries[qid * query_len + i]`) and the child for that base
// (`LDG nodes[node].child[base]`, 16-byte nodes), until the child is missing or the read
// ends, then stores (node, matched length) as 8 bytes. It is a model of the walk, not
// MUMmerGPU's code: the tree is the suffix trie of a random reference of ref_len bases cut
// at depth query_len (node ids in insertion order, suffix by suffix, so a deep walk jumps
// across the array: dependent loads at divergent addresses), and each read is a random
// substring of the reference with each base replaced by another with probability
// error_rate, so walks stop at data-dependent depths (lanes leave the loop by `@P1 BRA`,
// BSSY/BSYNC around it). Everything follows from `seed`.
#include <array>
#include <vector>

#include "traces/generators/input_gen.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
using trie = std::vector<std::array<std::uint32_t, 4>>;  // child per base, 0 = none

trie build_suffix_trie(const std::vector<std::uint8_t>& ref, std::uint32_t depth) {
  trie t(1, {0, 0, 0, 0});
  for (std::size_t s = 0; s < ref.size(); ++s) {
    std::uint32_t node = 0;
    for (std::size_t i = s; i < ref.size() && i < s + depth; ++i) {
      std::uint32_t& child = t[node][ref[i]];
      if (child == 0) {
        child = std::uint32_t(t.size());
        t.push_back({0, 0, 0, 0});
      }
      node = t[node][ref[i]];
    }
  }
  return t;
}

void generate_mum_walk(const param_set& ps, app_builder& app) {
  const std::uint64_t queries = ps.u64("queries");
  const std::uint32_t qlen = ps.u32("query_len"), ref_len = ps.u32("ref_len");
  const double error_rate = ps.real("error_rate");
  const std::uint64_t seed = ps.u64("seed");
  const std::uint32_t block = ps.u32("block");
  if (ref_len < qlen) param_set::fail("ref_len", "must be at least query_len");
  if (std::uint64_t(ref_len) * qlen > (1ull << 25))
    param_set::fail("ref_len", "ref_len * query_len must be at most 2^25 (tree size)");

  rng r(seed);
  std::vector<std::uint8_t> ref(ref_len);
  for (auto& b : ref) b = std::uint8_t(r.below(4));
  const trie t = build_suffix_trie(ref, qlen);
  std::vector<std::uint8_t> reads(queries * qlen);
  for (std::uint64_t q = 0; q < queries; ++q) {
    const std::uint64_t at = r.below(ref_len - qlen + 1);
    for (std::uint32_t i = 0; i < qlen; ++i) {
      std::uint8_t b = ref[at + i];
      if (r.uniform() < error_rate) b = std::uint8_t((b + 1 + r.below(3)) % 4);
      reads[q * qlen + i] = b;
    }
  }
  const std::uint32_t grid = std::uint32_t((queries + block - 1) / block);

  const std::uint64_t nodes = app.input(16 * t.size());
  const std::uint64_t query_base = app.input(queries * qlen);
  const std::uint64_t out = app.output(8 * queries);

  program p(app.opcodes(), 18);
  auto m = p.here();
  p.global_index_1d();  // R3 = qid
  p.isetp("GE", 3, rz);
  const code head = p.since(m);
  const code exit_oob = p.exit();
  m = p.here();
  p.mov(4);              // node = root
  p.mov(5);              // i = 0
  p.imad(6, 3, rz, rz);  // qid * query_len
  p.address(8, 6, rz);   // &queries[qid * query_len]
  const code init = p.since(m);
  const code split = p.reconverge_begin();
  const code ld_base = p.ld_global(10, 8, 1);
  m = p.here();
  p.imad(11, 4, rz, 10);  // node * 4 + base
  p.address(12, 11, rz);  // &nodes[node].child[base]
  const code index = p.since(m);
  const code ld_child = p.ld_global(14, 12, 4);
  const code cmp = p.isetp("EQ", 14, rz);  // no child
  const code bra_out = p.bra();            // @P1 BRA
  m = p.here();
  p.raw("MOV", {4}, {14});  // node = child
  p.iadd(5, 5, rz);         // ++i
  p.ptr_add(8, 8, rz);      // next base
  p.isetp("LT", 5, rz);     // i < query_len
  const code advance = p.since(m);
  const code back = p.bra();
  const code join = p.reconverge_end();
  const code addr_out = p.address(16, 3, rz);
  const code st = p.st_global(16, 4, 8);  // (node, length)
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel("_Z8mum_walkPK4NodePKcP10MatchCoordii", app.reserve_kernel_id(), dim3{grid, 1, 1},
                 dim3{block, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      std::array<std::uint64_t, 32> qid{};
      std::array<std::uint32_t, 32> node{}, i{};
      std::uint32_t act = 0;
      for (unsigned l = 0; l < 32; ++l) {
        if (!(lanes.live >> l & 1u)) continue;
        qid[l] = std::uint64_t(tb.index.x) * block + lanes.flat[l];
        if (qid[l] < queries) act |= 1u << l;
      }
      auto base_of = [&](unsigned l) { return reads[qid[l] * qlen + i[l]]; };
      e.run(head, lanes.live);
      e.run(exit_oob, lanes.live & ~act);
      e.run(init, act);
      e.run(split, act);
      std::uint32_t loop = act;
      while (loop != 0) {
        e.mem_fn(ld_base, loop, [&](unsigned l) { return query_base + qid[l] * qlen + i[l]; });
        e.run(index, loop);
        e.mem_fn(ld_child, loop,
                 [&](unsigned l) { return nodes + 16ull * node[l] + 4ull * base_of(l); });
        e.run(cmp, loop);
        std::uint32_t miss = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((loop >> l & 1u) && t[node[l]][base_of(l)] == 0) miss |= 1u << l;
        e.run(bra_out, miss);
        const std::uint32_t cont = loop & ~miss;
        std::uint32_t next = 0;
        for (unsigned l = 0; l < 32; ++l) {
          if (!(cont >> l & 1u)) continue;
          node[l] = t[node[l]][base_of(l)];
          if (++i[l] < qlen) next |= 1u << l;
        }
        e.run(advance, cont);
        e.run(back, next);
        loop = next;
      }
      e.run(join, act);
      e.run(addr_out, act);
      e.mem_fn(st, act, [&](unsigned l) { return out + 8 * qid[l]; });
      e.run(done, act);
    }
  });
}
}  // namespace

kernel_generator mum_walk_generator() {
  return {"mum_walk",
          "MUMmerGPU-like suffix-tree walk: thread per read, dependent child loads at "
          "divergent addresses, data-dependent walk lengths",
          {param_desc::integer("queries", 16384, 1, 1ull << 22, "number of reads (threads)"),
           param_desc::integer("query_len", 32, 1, 64, "bases per read (and the tree's depth)"),
           param_desc::integer("ref_len", 65536, 1, 1u << 20, "bases of the reference"),
           param_desc::real("error_rate", 0.02, 0, 1, "probability that a read's base differs"),
           param_desc::integer("seed", 1, 0, ~0ull >> 12, "seed of the reference and the reads"),
           param_desc::integer("block", 256, 32, 1024, "threads per TB")},
          generate_mum_walk};
}

}  // namespace gputlm::traces::generators
