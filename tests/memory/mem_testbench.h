// Test harness for the memory blocks: building a block from key/value parameters (or from
// a platform YAML's block section), a traffic generator standing in for the SMX's LDST unit
// (or an L2 bank, towards a DRAM channel), and a fixed-latency memory target.
#pragma once

#include <gtest/gtest.h>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <yaml-cpp/yaml.h>

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "models/base/index_expr.h"
#include "models/base/units.h"
#include "models/common/clock_domain.h"
#include "models/common/component.h"
#include "models/common/mem_request.h"
#include "models/control/workload.h"
#include "models/memory/access_breakdown.h"
#include "models/power/power_model.h"

namespace gputlm::test {

// The GTX480 L1 of the block tests (16 KiB, 32 sets x 4 ways of 128 B, write-evict for
// global data, 8 MSHRs merging 8, hit latency 35 cycles), with `extra` values on top.
inline std::map<std::string, std::string> fermi_l1_params(
    std::map<std::string, std::string> extra = {}) {
  std::map<std::string, std::string> p = {{"size", "16KiB"},
                                          {"sets", "32"},
                                          {"ways", "4"},
                                          {"line_size", "128B"},
                                          {"sectored", "false"},
                                          {"replacement", "lru"},
                                          {"write_policy", "local_wb_global_evict"},
                                          {"allocate", "on_miss"},
                                          {"write_allocate", "none"},
                                          {"set_index", "linear"},
                                          {"mshr_entries", "8"},
                                          {"mshr_merge", "8"},
                                          {"miss_queue", "8"},
                                          {"hit_latency", "35cycles"}};
  for (auto& [k, v] : extra) p[k] = v;
  return p;
}

// A GTX480-like L2 bank of the block tests (64 KiB, 64 sets x 8 ways of 128 B, sectored,
// write-back, 32 MSHRs merging 4, a 32 B data port, ROP delay 10 cycles, no DRAM delay),
// with `extra` values on top.
inline std::map<std::string, std::string> test_l2_params(
    std::map<std::string, std::string> extra = {}) {
  std::map<std::string, std::string> p = {{"size", "64KiB"},
                                          {"sets", "64"},
                                          {"ways", "8"},
                                          {"line_size", "128B"},
                                          {"sectored", "true"},
                                          {"replacement", "lru"},
                                          {"write_policy", "write_back"},
                                          {"allocate", "on_miss"},
                                          {"write_allocate", "lazy_fetch_on_read"},
                                          {"set_index", "linear"},
                                          {"mshr_entries", "32"},
                                          {"mshr_merge", "4"},
                                          {"data_port_width", "32B"},
                                          {"rop_latency", "10cycles"},
                                          {"dram_latency", "0cycles"}};
  for (auto& [k, v] : extra) p[k] = v;
  return p;
}

// A power table entry of `block_type`'s component `name`.
inline pm::component_spec power_entry(const std::string& block_type, const std::string& name,
                                      std::vector<pm::state_spec> states,
                                      std::vector<pm::event_spec> events) {
  pm::component_spec c;
  c.block_type = block_type;
  c.component = name;
  c.states = std::move(states);
  c.events = std::move(events);
  return c;
}

// Owns what a block's constructor needs.
struct block_env {
  std::vector<std::unique_ptr<block_config>> configs;
  stats_registry stats;
  control::workload_ref work;
  std::vector<std::unique_ptr<clock_domain>> clocks;
  pm::power_model* power = nullptr;  // a test's power table and gating policy, if any

  block_env() { clock_domain::init_time_resolution(); }

  clock_domain& clock(const std::string& name, double hz) {
    clocks.push_back(std::make_unique<clock_domain>(name, hz, 1.0));
    return *clocks.back();
  }

  block_config& config(const std::string& path, const std::string& type,
                       const std::map<std::string, std::string>& values) {
    configs.push_back(std::make_unique<block_config>(path, type, source_location{}));
    for (const auto& [k, v] : values) {
      config_value cv;
      if (!v.empty() && v.front() == '[') {
        cv.is_sequence = true;
        std::string inner = v.substr(1, v.size() - 2);
        std::size_t pos = 0;
        while (pos < inner.size()) {
          std::size_t c = inner.find(',', pos);
          std::string item =
              inner.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
          item.erase(0, item.find_first_not_of(' '));
          item.erase(item.find_last_not_of(' ') + 1);
          if (!item.empty()) cv.items.push_back(item);
          if (c == std::string::npos) break;
          pos = c + 1;
        }
      } else {
        cv.text = v;
      }
      configs.back()->set(k, cv);
    }
    return *configs.back();
  }

  // Builds the block from `values` and validates it. A key that none of the block's
  // parameters read is an error, as in the elaborator (platform::check_unused_and_validate):
  // a misspelt key in a test throws instead of leaving the parameter at its default.
  template <typename Block>
  std::unique_ptr<Block> make(const std::string& name, clock_domain& clk,
                              const std::map<std::string, std::string>& values,
                              const std::string& type = "") {
    // "bound:NAME": the elements of array NAME the platform would bind (component::bound_count).
    std::map<std::string, std::string> params;
    auto& bound = arrays[name];
    for (const auto& [k, v] : values) {
      if (k.rfind("bound:", 0) == 0)
        bound[k.substr(6)] = std::stoull(v);
      else
        params[k] = v;
    }
    block_config& c = config(name, type, params);
    block_context ctx{c, clk, stats, work, power, &bound};
    auto b = std::make_unique<Block>(name.c_str(), ctx);
    check_unused(*b, c);
    b->validate();
    return b;
  }

  std::map<std::string, std::map<std::string, std::uint64_t>> arrays;  // per block name

  static void check_unused(const component& b, const block_config& c) {
    for (const auto& [key, v] : c.values()) {
      if (v.used) continue;
      std::string valid;
      for (const param_base* p : b.params()) valid += (valid.empty() ? "" : ", ") + p->name();
      throw std::invalid_argument("block_env: " + c.path() + "." + key +
                                  ": unknown key for a block of type '" + c.type() +
                                  "' (its parameters: " + valid + ")");
    }
  }
};

// The scalar and list parameters of block `block` (a child of `gpu`) in a platform YAML,
// and the frequency of its clock; count/type/clock keys are left out.
struct yaml_block {
  std::map<std::string, std::string> values;
  std::map<std::string, std::int64_t> vars;  // the file's integer `vars`
  double clock_hz = 0;
  std::uint64_t count = 1;
  std::string type;
};
inline yaml_block read_yaml_block(const std::string& file, const std::string& block) {
  YAML::Node root = YAML::LoadFile(file);
  // The file's `vars` (integers in any order, else text), for counts and `${...}` values.
  var_values vars;
  text_vars texts;
  if (root["vars"]) {
    std::vector<std::pair<std::string, std::string>> pending;
    for (auto it = root["vars"].begin(); it != root["vars"].end(); ++it)
      pending.emplace_back(it->first.as<std::string>(), it->second.as<std::string>());
    for (std::size_t pass = 0; pass <= pending.size(); ++pass)
      for (const auto& [k, v] : pending) {
        std::int64_t x = 0;
        index_expr e(v, vars);
        if (e.eval(x)) vars[k] = x;
      }
    for (const auto& [k, v] : pending)
      if (!vars.count(k)) texts[k] = v;
  }
  YAML::Node b = root["gpu"];
  std::string clk = "core";
  for (std::size_t pos = 0; pos <= block.size();) {
    const std::size_t dot = std::min(block.find('.', pos), block.size());
    b = b[block.substr(pos, dot - pos)];
    if (b["clock"]) clk = b["clock"].as<std::string>();
    pos = dot + 1;
  }
  yaml_block out;
  for (auto it = b.begin(); it != b.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (key == "type") out.type = it->second.as<std::string>();
    if (key == "type" || key == "clock" || key == "bind" || it->second.IsMap()) continue;
    if (key == "count") {
      std::int64_t n = 0;
      index_expr e(it->second.as<std::string>(), vars);
      if (!e.eval(n)) throw std::invalid_argument("read_yaml_block: count: " + e.why());
      out.count = static_cast<std::uint64_t>(n);
      continue;
    }
    if (it->second.IsSequence()) {
      std::string s = "[";
      for (std::size_t i = 0; i < it->second.size(); ++i)
        s += (i ? ", " : "") + it->second[i].as<std::string>();
      out.values[key] = s + "]";
    } else if (it->second.IsScalar()) {
      out.values[key] = substitute_vars(it->second.as<std::string>(), vars, texts);
    }
  }
  out.vars = vars;
  out.clock_hz = *units::parse_frequency(root["clocks"][clk]["frequency"].as<std::string>());
  return out;
}

struct tg_request {
  std::uint64_t addr = 0;
  unsigned length = 4;
  access_kind kind = access_kind::global_load;
  std::uint8_t sectors = 0;      // 0: from address and length
  std::uint64_t not_before = 0;  // earliest issue cycle
  bool after_previous = false;   // wait for the previous request's response first
};

// An AT initiator playing a list of requests, one BEGIN_REQ at a time, honouring END_REQ.
class traffic_generator : public sc_core::sc_module {
 public:
  struct record {
    std::uint64_t issued = 0, accepted = 0, responded = 0;  // cycles of `clk`
    bool done = false;
  };

  SC_HAS_PROCESS(traffic_generator);
  traffic_generator(sc_core::sc_module_name n, clock_domain& clk, std::vector<tg_request> script,
                    std::uint32_t smx = 0)
      : sc_module(n), socket("socket"), m_clk(clk), m_script(std::move(script)), m_smx(smx) {
    socket.register_nb_transport_bw(this, &traffic_generator::bw);
    records.resize(m_script.size());
    SC_THREAD(run);
  }

  tlm_utils::simple_initiator_socket<traffic_generator> socket;
  std::vector<record> records;
  payload_pool pool;
  std::size_t completed = 0;
  std::uint64_t first_issue = ~std::uint64_t(0), last_response = 0;

  std::uint64_t latency(std::size_t i) const { return records[i].responded - records[i].issued; }

 private:
  void run() {
    for (std::size_t i = 0; i < m_script.size(); ++i) {
      const tg_request& r = m_script[i];
      if (r.after_previous && i > 0)
        while (!records[i - 1].done) wait(m_response);
      if (m_clk.now_cycle() < r.not_before ||
          m_clk.edge_time(m_clk.now_cycle()) != sc_core::sc_time_stamp())
        wait(m_clk.delay_cycles(r.not_before > m_clk.now_cycle() ? r.not_before - m_clk.now_cycle()
                                                                 : 0));
      const bool write = r.kind == access_kind::global_store ||
                         r.kind == access_kind::local_store || r.kind == access_kind::writeback;
      tlm::tlm_generic_payload& gp =
          pool.acquire(r.addr, r.length, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      mem_request& ext = payload_pool::request(gp);
      ext.kind = r.kind;
      ext.sector_mask = r.sectors;
      ext.smx = m_smx;
      ext.warp = static_cast<std::uint32_t>(i);
      ext.lane_mask = 0xffffffffu;
      m_index[&gp] = i;
      records[i].issued = m_clk.now_cycle();
      first_issue = std::min(first_issue, records[i].issued);
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      m_waiting = &gp;
      tlm::tlm_sync_enum s = socket->nb_transport_fw(gp, ph, t);
      if (s == tlm::TLM_UPDATED && ph == tlm::END_REQ) {
        m_waiting = nullptr;
        records[i].accepted = m_clk.now_cycle();
      }
      while (m_waiting) wait(m_end_req);
    }
  }

  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
    const std::size_t i = m_index.at(&gp);
    if (ph == tlm::END_REQ || (ph == tlm::BEGIN_RESP && m_waiting == &gp)) {
      if (m_waiting == &gp) {
        m_waiting = nullptr;
        records[i].accepted = m_clk.now_cycle();
        m_end_req.notify(sc_core::SC_ZERO_TIME);
      }
    }
    if (ph == tlm::BEGIN_RESP) {
      EXPECT_FALSE(records[i].done) << "two responses for request " << i;
      records[i].responded = m_clk.now_cycle();
      records[i].done = true;
      last_response = std::max(last_response, records[i].responded);
      ++completed;
      m_index.erase(&gp);
      gp.release();
      m_response.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
  }

  clock_domain& m_clk;
  std::vector<tg_request> m_script;
  std::uint32_t m_smx;
  std::unordered_map<tlm::tlm_generic_payload*, std::size_t> m_index;
  tlm::tlm_generic_payload* m_waiting = nullptr;
  sc_core::sc_event m_end_req, m_response;
};

// A memory that answers every request `latency` cycles after taking it, holding at most
// `capacity` requests (END_REQ withheld beyond that). It logs what it saw.
class fixed_memory : public sc_core::sc_module {
 public:
  struct seen {
    std::uint64_t addr;
    unsigned length;
    bool write;
    std::uint8_t sectors;
    access_kind kind;
    std::uint64_t cycle;
    memory::access_type type;  // the type the next level counts it under
  };

  SC_HAS_PROCESS(fixed_memory);
  fixed_memory(sc_core::sc_module_name n, clock_domain& clk, std::uint64_t latency,
               std::size_t capacity = 1 << 20)
      : sc_module(n), socket("socket"), m_clk(clk), m_latency(latency), m_capacity(capacity) {
    socket.register_nb_transport_fw(this, &fixed_memory::fw);
    SC_METHOD(respond);
    sensitive << m_peq.get_event();
    dont_initialize();
  }

  tlm_utils::simple_target_socket<fixed_memory> socket;
  std::vector<seen> log;

 private:
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph == tlm::BEGIN_REQ) {
      if (m_outstanding >= m_capacity) {
        m_held = &gp;
        return tlm::TLM_ACCEPTED;
      }
      take(gp);
      ph = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    return tlm::TLM_ACCEPTED;
  }
  void take(tlm::tlm_generic_payload& gp) {
    const mem_request* r = gp.get_extension<mem_request>();
    log.push_back({gp.get_address(), gp.get_data_length(), gp.is_write(),
                   r ? r->sector_mask : std::uint8_t(0), r ? r->kind : access_kind::global_load,
                   m_clk.now_cycle(), r ? memory::type_of(*r) : memory::access_type::none});
    ++m_outstanding;
    m_peq.notify(gp, m_clk.delay_cycles(m_latency));
  }
  void respond() {
    while (tlm::tlm_generic_payload* gp = m_peq.get_next_transaction()) {
      tlm::tlm_phase ph = tlm::BEGIN_RESP;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      --m_outstanding;
      gp->set_response_status(tlm::TLM_OK_RESPONSE);
      socket->nb_transport_bw(*gp, ph, t);
      if (m_held) {
        tlm::tlm_generic_payload* h = m_held;
        m_held = nullptr;
        take(*h);
        tlm::tlm_phase e = tlm::END_REQ;
        socket->nb_transport_bw(*h, e, t);
      }
    }
  }

  clock_domain& m_clk;
  std::uint64_t m_latency;
  std::size_t m_capacity;
  std::size_t m_outstanding = 0;
  tlm::tlm_generic_payload* m_held = nullptr;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> m_peq{"peq"};
};

}  // namespace gputlm::test

namespace gputlm::test {
// Calls `f` at the start of `cycle` of `clk` (to observe a block mid-run).
class probe : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(probe);
  probe(sc_core::sc_module_name n, clock_domain& clk, std::uint64_t cycle, std::function<void()> f)
      : sc_module(n), m_clk(clk), m_cycle(cycle), m_f(std::move(f)) {
    SC_THREAD(run);
  }

 private:
  void run() {
    wait(m_clk.delay_cycles(m_cycle));
    m_f();
  }
  clock_domain& m_clk;
  std::uint64_t m_cycle;
  std::function<void()> m_f;
};

inline double stat(stats_registry& s, const std::string& block, const std::string& name) {
  const auto& e = s.blocks().at(block).at(name);
  if (e.count) return double(e.count->value());
  if (e.derived) return e.derived();
  return 0.0;
}
}  // namespace gputlm::test
