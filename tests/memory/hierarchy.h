// A memory hierarchy assembled from a platform YAML's block sections, with traffic
// generators in place of the SMXs: generator -> L1 -> crossbar -> L2 -> DRAM channel.
#pragma once

#include "models/memory/dram_channel.h"
#include "models/memory/l1_cache.h"
#include "models/memory/l2_cache.h"
#include "models/noc/crossbar.h"
#include "models/noc/network_interface.h"
#include "models/noc/mesh.h"
#include "tests/memory/mem_testbench.h"

namespace gputlm::test {

struct hierarchy {
  block_env env;
  std::vector<std::unique_ptr<memory::l1_cache>> l1;
  std::unique_ptr<noc::network> xbar;
  std::vector<std::unique_ptr<memory::l2_cache>> l2;
  std::vector<std::unique_ptr<memory::dram_channel>> dram;
  std::vector<std::unique_ptr<traffic_generator>> tg;
  std::vector<std::unique_ptr<noc::network_interface>> ni;  // SMX side, then memory side

  // `overrides`: block ("l1", "icnt", "l2", "dram") -> parameter -> value.
  hierarchy(const std::string& file, std::vector<std::vector<tg_request>> scripts,
            const std::map<std::string, std::map<std::string, std::string>>& overrides = {}) {
    const std::string path = std::string(GPUTLM_SOURCE_DIR) + "/" + file;
    yaml_block y1 = read_yaml_block(path, "smx.l1");
    yaml_block yx = read_yaml_block(path, "icnt");
    yaml_block y2 = read_yaml_block(path, "l2");
    yaml_block yd = read_yaml_block(path, "dram");
    yaml_block yi = read_yaml_block(path, "smx.ni");
    yaml_block yj = read_yaml_block(path, "l2_ni");
    clock_domain& core = env.clock("core", y1.clock_hz);
    clock_domain& icnt = env.clock("icnt", yx.clock_hz);
    clock_domain& l2c = env.clock("l2", y2.clock_hz);
    clock_domain& dc = env.clock("dram", yd.clock_hz);
    auto apply = [&](const char* block, yaml_block& y) {
      auto it = overrides.find(block);
      if (it != overrides.end())
        for (const auto& [k, v] : it->second) y.values[k] = v;
    };
    apply("l1", y1);
    apply("icnt", yx);
    apply("l2", y2);
    apply("dram", yd);
    const std::size_t n = scripts.size();
    yx.values["bound:smx"] = std::to_string(n);
    yx.values["bound:mem"] = std::to_string(y2.count);
    const std::size_t subs = static_cast<std::size_t>(y2.count / yd.count);
    yd.values["bound:l2"] = std::to_string(subs);
    if (yx.type == "mesh") {
      if (!yx.values.count("smx_nodes") || yx.values["smx_nodes"] == "[]")
        yx.values.erase("smx_nodes");
      xbar = env.make<noc::mesh>("icnt", icnt, yx.values, "mesh");
    } else {
      xbar = env.make<noc::crossbar>("icnt", icnt, yx.values, "crossbar");
    }
    for (std::size_t i = 0; i < n; ++i) {
      l1.push_back(
          env.make<memory::l1_cache>("l1_" + std::to_string(i), core, y1.values, "l1_cache"));
      tg.push_back(std::make_unique<traffic_generator>(("tg_" + std::to_string(i)).c_str(), core,
                                                       std::move(scripts[i]), std::uint32_t(i)));
      tg.back()->socket.bind(l1.back()->core);
      ni.push_back(env.make<noc::network_interface>("ni_" + std::to_string(i), core, yi.values,
                                                 "network_interface"));
      l1.back()->icnt.bind(ni.back()->in);
      ni.back()->out.bind(*xbar->smx[i]);
    }
    for (std::uint64_t c = 0; c < yd.count; ++c)
      dram.push_back(env.make<memory::dram_channel>("dram_" + std::to_string(c), dc, yd.values,
                                                    "dram_channel"));
    for (std::uint64_t j = 0; j < y2.count; ++j) {
      l2.push_back(
          env.make<memory::l2_cache>("l2_" + std::to_string(j), l2c, y2.values, "l2_cache"));
      ni.push_back(env.make<noc::network_interface>("l2_ni_" + std::to_string(j), l2c, yj.values,
                                                 "network_interface"));
      xbar->mem[j]->bind(ni.back()->in);
      ni.back()->out.bind(l2.back()->icnt);
      l2.back()->dram.bind(*dram[j / subs]->l2[j % subs]);
    }
  }

  std::size_t completed() const {
    std::size_t c = 0;
    for (auto& t : tg) c += t->completed;
    return c;
  }
  std::size_t payloads_in_use() const {
    std::size_t u = 0;
    for (auto& t : tg) u += t->pool.in_use();
    for (auto& b : l1) u += b->pool().in_use();
    for (auto& b : l2) u += b->pool().in_use();
    return u;
  }
  bool any_busy() const {
    for (auto& b : l1)
      if (b->busy()) return true;
    for (auto& b : l2)
      if (b->busy()) return true;
    for (auto& b : dram)
      if (b->busy()) return true;
    for (auto& b : ni)
      if (b->busy()) return true;
    return xbar->packets_in_flight() != 0;
  }
};

}  // namespace gputlm::test
