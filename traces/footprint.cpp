// Shared footprint ratios (see footprint.h).
#include "traces/footprint.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "models/base/command_line.h"

namespace gputlm::traces {
namespace {

namespace po = boost::program_options;

using block_set = std::vector<std::uint64_t>;  // sorted, unique

struct tb_record {
  block_set blocks;
  std::vector<std::uint32_t> children;  // kernel ids it launched
};

block_set blocks_of(const tb_trace& tb, unsigned shift, std::vector<std::uint32_t>* children) {
  block_set out;
  std::uint64_t addrs[32];
  for (const warp_trace& w : tb.warps)
    for (const warp_instruction& in : w.insts) {
      if ((in.special == special_op::launch_kernel || in.special == special_op::launch_agg_group) &&
          in.ext_index < w.launches.size())
        children->push_back(w.launches[in.ext_index].child_kernel);
      if (in.space != mem_space::global || in.access_size == 0 || in.special != special_op::none)
        continue;
      const std::uint32_t n = expand_addresses(w, in, addrs);
      for (std::uint32_t l = 0; l < n; ++l)
        for (std::uint64_t b = addrs[l] >> shift; b <= (addrs[l] + in.access_size - 1) >> shift;
             ++b)
          out.push_back(b);
    }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// For each TB X of `group` (by index into `tbs`): the blocks of the others, and those X
// touches too, added to *shared and *others. A block's count tells how many TBs touch it.
void against_the_others(const std::vector<const block_set*>& group, std::uint64_t* shared,
                        std::uint64_t* others) {
  if (group.size() < 2) return;
  std::unordered_map<std::uint64_t, std::uint32_t> count;
  for (const block_set* s : group)
    for (std::uint64_t b : *s) ++count[b];
  const std::uint64_t all = count.size();
  for (const block_set* s : group) {
    std::uint64_t only_mine = 0, mine_shared = 0;
    for (std::uint64_t b : *s) (count[b] == 1 ? only_mine : mine_shared) += 1;
    *others += all - only_mine;
    *shared += mine_shared;
  }
}

}  // namespace

shared_footprint measure_shared_footprint(application_trace& app, std::uint32_t block_bytes) {
  if (block_bytes == 0 || (block_bytes & (block_bytes - 1)) != 0)
    throw std::invalid_argument(fmt::format("block size {} is not a power of two", block_bytes));
  unsigned shift = 0;
  while ((1u << shift) < block_bytes) ++shift;
  shared_footprint f;
  f.block_bytes = block_bytes;
  // Every kernel's TBs, by kernel id.
  std::unordered_map<std::uint32_t, std::vector<tb_record>> kernels;
  std::vector<std::uint32_t> host;  // host kernels, in command order
  const auto& cmds = app.commands();
  for (std::size_t ci = 0; ci < cmds.size(); ++ci) {
    if (cmds[ci].what == command::kind::memcpy_h2d) continue;
    kernel_reader& k = app.kernel(ci);
    const std::uint32_t id = k.info().id;
    if (!k.info().device_launched) host.push_back(id);
    std::vector<tb_record>& tbs = kernels[id];
    const std::uint64_t n = k.tb_count();
    for (std::uint64_t t = 0; t < n; ++t) {
      tb_record r;
      r.blocks = blocks_of(*k.read_tb(static_cast<std::uint32_t>(t)), shift, &r.children);
      tbs.push_back(std::move(r));
    }
    app.release(ci);
  }
  auto child_tbs = [&](std::uint32_t id) -> const std::vector<tb_record>& {
    auto it = kernels.find(id);
    if (it == kernels.end())
      throw input_error({app.path(), 0, 0}, "launch",
                        fmt::format("a launch names kernel {}, which the trace does not have", id));
    return it->second;
  };
  bool launches = false;
  for (auto& [id, tbs] : kernels)
    for (const tb_record& p : tbs) {
      if (p.children.empty()) continue;
      launches = true;
      ++f.parent_tbs;
      std::vector<const block_set*> siblings;
      block_set c;
      for (std::uint32_t child : p.children)
        for (const tb_record& x : child_tbs(child)) {
          siblings.push_back(&x.blocks);
          c.insert(c.end(), x.blocks.begin(), x.blocks.end());
        }
      std::sort(c.begin(), c.end());
      c.erase(std::unique(c.begin(), c.end()), c.end());
      block_set pc;
      std::set_intersection(p.blocks.begin(), p.blocks.end(), c.begin(), c.end(),
                            std::back_inserter(pc));
      f.c += c.size();
      f.pc += pc.size();
      f.child_tbs += siblings.size();
      against_the_others(siblings, &f.cos, &f.cs);
    }
  if (launches)
    for (std::uint32_t id : host) {
      const std::vector<tb_record>& tbs = kernels[id];
      if (std::none_of(tbs.begin(), tbs.end(),
                       [](const tb_record& r) { return !r.children.empty(); }))
        continue;
      std::vector<const block_set*> group;
      for (const tb_record& r : tbs) group.push_back(&r.blocks);
      against_the_others(group, &f.pos, &f.ps);
    }
  return f;
}

int footprint_main(const std::vector<std::string>& args) {
  po::options_description opts(
      "gputlm trace footprint TRACE [options]\n"
      "Shared footprint ratios of a trace with device launches (Wang thesis 5.1.1): parent-\n"
      "child pc/c, child-sibling cos/cs, and among the launching kernels' TBs, in blocks of\n"
      "global memory; one JSON object on stdout");
  opts.add_options()("help,h", "show this help")("trace", po::value<std::string>(),
                                                 "trace: directory, kernelslist.g or .gtb")(
      "block", po::value<std::string>()->default_value("128B"), "block size: 32B or 128B");
  const auto parsed = parse_trace_command(args, opts);
  if (!parsed) return exit_ok;
  const po::variables_map& vm = *parsed;
  std::string b = vm["block"].as<std::string>();
  if (!b.empty() && (b.back() == 'B' || b.back() == 'b')) b.pop_back();
  if (b != "32" && b != "128") throw input_error(command_line, "--block", "not 32B or 128B");
  auto app = open_trace(vm["trace"].as<std::string>(), open_options{});
  const shared_footprint f = measure_shared_footprint(*app, std::uint32_t(std::stoul(b)));
  nlohmann::json j;
  j["block_bytes"] = f.block_bytes;
  j["parent_tbs"] = f.parent_tbs;
  j["child_tbs"] = f.child_tbs;
  j["parent_child"] = f.parent_child();
  j["child_sibling"] = f.child_sibling();
  j["among_parents"] = f.among_parents();
  j["pc"] = f.pc;
  j["c"] = f.c;
  j["cos"] = f.cos;
  j["cs"] = f.cs;
  std::cout << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return exit_ok;
}

}  // namespace gputlm::traces
