// `gputlm import-config`: GPGPU-Sim / Accel-Sim configuration -> gputlm platform YAML.
//
// Sources of the semantics (read, not copied): GPGPU-Sim's option parser
// (accel-sim/gpgpu-sim_distribution src/option_parser.cc), the option registrations and
// field parsers of src/gpgpu-sim/{gpu-sim.cc,gpu-sim.h,shader.h,gpu-cache.h,addrdec.cc,
// icnt_wrapper.cc,local_interconnect.cc}, Accel-Sim's trace_driven.cc (trace.config), and
// the grammar sections of docs/references.md ("Cache configuration string" through
// "Core and launch options"). The gputlm side is the parameter declarations of models/ and
// the conventions of yaml/volta.yaml.
//
// Three outcomes per option present in the inputs: it sets gputlm keys (each written with a
// comment naming the option), its value is what gputlm always does (noted in a comment), or
// it has no equivalent (listed in `unmapped`, with the code when only a code or a field of
// the value is the problem). Bad input is an input_error at the option's value.
#include "sc_main/import_config.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "models/base/command_line.h"
#include "models/base/input_error.h"
#include "models/base/output_files.h"
#include "models/base/units.h"
#include "models/common/param.h"
#include "models/memory/address_decoder.h"
#include "platforms/platform.h"
#include "sc_main/commands.h"

namespace po = boost::program_options;

namespace gputlm::cli {
namespace {

// ---------------------------------------------------------------------------------------
// GPGPU-Sim's option syntax: the file is one stream of whitespace-separated tokens once
// everything from '#' to the end of each line is dropped; a token starting with '"' runs to
// the next token ending with '"' (possibly lines later), joined by single spaces.

struct token {
  std::string text;
  source_location where;
  bool quoted = false;
};

struct option_entry {
  std::string name;             // "-gpgpu_cache:dl1"
  std::string value;            // quotes removed
  source_location where;        // of the name
  source_location value_where;  // of the value
};

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::vector<token> tokenize(const std::string& text, const std::string& file) {
  std::vector<token> out;
  token open;  // a quoted value still waiting for its closing quote
  bool in_quote = false;
  std::uint64_t line_no = 0;
  std::size_t pos = 0;
  for (;;) {
    std::size_t eol = text.find('\n', pos);
    const bool last = eol == std::string::npos;
    if (last) eol = text.size();
    std::string line = text.substr(pos, eol - pos);
    ++line_no;
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::size_t i = 0;
    while (i < line.size()) {
      if (is_space(line[i])) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < line.size() && !is_space(line[j])) ++j;
      std::string word = line.substr(i, j - i);
      const source_location at{file, line_no, i + 1};
      if (in_quote) {
        open.text += " " + word;
        if (word.back() == '"') in_quote = false;
      } else if (word.front() == '"') {
        open = token{word, at, true};
        in_quote = word.size() < 2 || word.back() != '"';
      } else {
        out.push_back(token{word, at, false});
      }
      if (open.quoted && !in_quote) {
        open.text = open.text.substr(1, open.text.size() - 2);
        out.push_back(open);
        open = token{};
      }
      i = j;
    }
    if (last) break;
    pos = eol + 1;
  }
  if (in_quote)  // named after the option it follows
    throw input_error(open.where, out.empty() ? "" : out.back().text,
                      "unterminated quoted value (no closing '\"')");
  return out;
}

bool looks_like_option(const token& t) {
  return !t.quoted && t.text.size() >= 2 && t.text[0] == '-' &&
         (std::isalpha(static_cast<unsigned char>(t.text[1])) || t.text[1] == '_');
}

std::vector<option_entry> parse_options(const std::string& text, const std::string& file) {
  const std::vector<token> tokens = tokenize(text, file);
  std::vector<option_entry> out;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const token& t = tokens[k];
    if (!looks_like_option(t))
      throw input_error(t.where, t.text, "expected an option (-name value), got '" + t.text + "'");
    if (k + 1 >= tokens.size() || looks_like_option(tokens[k + 1]))
      throw input_error(t.where, t.text, "option given without a value");
    out.push_back(option_entry{t.text, tokens[k + 1].text, t.where, tokens[k + 1].where});
    ++k;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Small text helpers

std::string trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t p = s.find(sep, start);
    out.push_back(trim(s.substr(start, p == std::string_view::npos ? s.npos : p - start)));
    if (p == std::string_view::npos) return out;
    start = p + 1;
  }
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string cyc(std::uint64_t n) { return units::format_cycles(n); }
std::string size_text(std::uint64_t n) { return units::format_bytes(n); }
std::string bool_text(bool b) { return b ? "true" : "false"; }
std::string mhz_text(double mhz) { return units::format_double(mhz) + "MHz"; }

// ---------------------------------------------------------------------------------------
// The platform's blocks in the order and with the keys of yaml/volta.yaml.

struct block_layout {
  const char* path;  // key path of the block, e.g. gpu.smx.l1
  const char* type;
  const char* clock;  // or nullptr (inherited)
  std::vector<const char*> keys;
};

const std::vector<const char*> k_cache_keys{
    "size",         "sets",         "ways",           "line_size",      "sectored",
    "replacement",  "write_policy", "allocate",       "write_allocate", "set_index",
    "mshr_entries", "mshr_merge",   "data_port_width"};

std::vector<const char*> with_cache_keys(std::vector<const char*> head,
                                         const std::vector<const char*>& tail) {
  head.insert(head.end(), k_cache_keys.begin(), k_cache_keys.end());
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

const block_layout k_kmu{
    "gpu.kmu", "kmu", nullptr, {"hw_queues", "kernel_launch_latency", "dispatch_latency"}};
const block_layout k_kd{"gpu.kd", "kernel_distributor", nullptr, {"entries"}};
const block_layout k_tbs{"gpu.smx_scheduler",
                         "smx_scheduler",
                         nullptr,
                         {"tb_launch_latency", "concurrent_kernels_per_smx"}};
const block_layout k_smx{"gpu.smx",
                         "smx",
                         nullptr,
                         {"count",
                          "warp_size",
                          "max_threads",
                          "max_tbs",
                          "registers",
                          "shared_memory",
                          "shared_memory_banks",
                          "shared_memory_latency",
                          "warp_schedulers",
                          "scheduler_policy",
                          "max_issue_per_warp",
                          "dual_issue_different_units",
                          "sub_core_model",
                          "fetch_width",
                          "fetch_warps",
                          "fetch_when_empty",
                          "atomic_wait",
                          "ibuffer_entries",
                          "icache_perfect",
                          "icache_sets",
                          "icache_ways",
                          "icache_line_size",
                          "icache_mshr_entries",
                          "icache_mshr_merge",
                          "register_banks",
                          "register_port_throughput",
                          "collectors_sp",
                          "collectors_sfu",
                          "collectors_mem",
                          "collectors_generic",
                          "sp_units",
                          "sp_latency",
                          "sp_initiation",
                          "sfu_units",
                          "sfu_latency",
                          "sfu_initiation",
                          "dp_units",
                          "dp_latency",
                          "dp_initiation",
                          "int_units",
                          "int_latency",
                          "int_initiation",
                          "tensor_units",
                          "tensor_latency",
                          "tensor_initiation",
                          "branch_units",
                          "branch_latency",
                          "branch_initiation",
                          "coalescing_arch",
                          "l1_requests_per_cycle",
                          "unified_l1"}};
const block_layout k_l1{
    "gpu.smx.l1", "l1_cache", nullptr,
    with_cache_keys({}, {"miss_queue", "banks", "bank_interleave", "hit_latency", "miss_latency",
                         "bypass_global_loads", "bypass_global_stores", "flush_at_kernel_end",
                         "dirty_line_cap", "lookups_per_cycle", "unified_size", "shared_options"})};
const block_layout k_iu{
    "gpu.smx.ni", "network_interface", nullptr, {"request_buffer", "response_buffer", "latency"}};
const block_layout k_icnt{
    "gpu.icnt",
    "crossbar",
    "icnt",
    {"flit_size", "input_buffer", "output_buffer", "ejection_buffer", "arbiter", "input_queueing",
     "smx_per_port", "internal_speedup", "serial_inputs", "allocation_steps", "output_speedup",
     "sector_replies", "latency", "partition_indexing", "mem_channels", "address_map"}};
const block_layout k_l2_iu{"gpu.l2_ni",
                           "network_interface",
                           nullptr,
                           {"count", "request_buffer", "response_buffer", "latency"}};
const block_layout k_l2{
    "gpu.l2", "l2_cache", "l2",
    with_cache_keys({"count"}, {"rop_latency", "dram_latency", "icnt_to_l2_queue",
                                "l2_to_dram_queue", "l2_to_icnt_queue", "warm_from_memcpy"})};
const block_layout k_dram{"gpu.dram",
                          "dram_channel",
                          "dram",
                          {"count",
                           "channels",
                           "chips",
                           "bus_width",
                           "burst_length",
                           "data_rate",
                           "banks",
                           "bank_groups",
                           "tCCD",
                           "tRRD",
                           "tRCD",
                           "tRAS",
                           "tRP",
                           "tRC",
                           "CL",
                           "WL",
                           "tCDLR",
                           "tWR",
                           "tCCDL",
                           "tRTPL",
                           "scheduler",
                           "queue_depth",
                           "return_queue",
                           "dual_bus",
                           "bank_indexing",
                           "bank_group_indexing",
                           "address_map",
                           "sector_atoms"}};

// GPGPU-Sim option defaults that differ from gputlm's block defaults: noted at the top of
// the file for the options the inputs leave out (gputlm's default is what runs).
struct default_difference {
  const char* option;
  const char* gpgpusim_default;
  const char* gputlm;  // key and its default
};
const default_difference k_default_differences[] = {
    {"-gpgpu_shader_core_pipeline", "1024:32", "gpu.smx.max_threads 1536"},
    {"-gpgpu_shader_cta", "32", "gpu.smx.max_tbs 8"},
    {"-gpgpu_shader_registers", "8192", "gpu.smx.registers 32768"},
    {"-gpgpu_shmem_size", "16384", "gpu.smx.shared_memory 48KiB"},
    {"-gpgpu_shmem_num_banks", "16", "gpu.smx.shared_memory_banks 32"},
    {"-gpgpu_num_sched_per_core", "1", "gpu.smx.warp_schedulers 2"},
    {"-gpgpu_max_insn_issue_per_warp", "2", "gpu.smx.max_issue_per_warp 1"},
    {"-gpgpu_dual_issue_diff_exec_units", "1", "gpu.smx.dual_issue_different_units false"},
    {"-gpgpu_num_reg_banks", "8", "gpu.smx.register_banks 16"},
    {"-gpgpu_operand_collector_num_units_sp", "4", "gpu.smx.collectors_sp 0 (unlimited)"},
    {"-gpgpu_operand_collector_num_units_sfu", "4", "gpu.smx.collectors_sfu 0 (unlimited)"},
    {"-gpgpu_operand_collector_num_units_mem", "2", "gpu.smx.collectors_mem 0 (unlimited)"},
    {"-gpgpu_coalesce_arch", "13", "gpu.smx.coalescing_arch 20"},
    {"-gpgpu_cache:dl1", "none (no L1)", "gpu.smx.l1 16KiB = 32 sets x 4 ways x 128B"},
    {"-gpgpu_flush_l1_cache", "0", "gpu.smx.l1.flush_at_kernel_end true"},
    {"-gpgpu_n_cluster_ejection_buffer_size", "8",
     "gpu.smx.ni.response_buffer 32, gpu.icnt.ejection_buffer 32"},
    {"-gpgpu_concurrent_kernel_sm", "0", "gpu.smx_scheduler.concurrent_kernels_per_smx true"},
    {"-gpgpu_l2_rop_latency", "85", "gpu.l2.rop_latency 120cycles"},
    {"-dram_latency", "30", "gpu.l2.dram_latency 100cycles"},
    {"-gpgpu_frfcfs_dram_sched_queue_size", "0 (unlimited)", "gpu.dram.queue_depth 16"},
    {"-gpgpu_dram_return_queue_size", "0 (unlimited)", "gpu.dram.return_queue 116"},
    {"-gpgpu_n_mem_per_ctrlr", "1", "gpu.dram.chips 2"},
    {"-gpgpu_dram_burst_length", "4", "gpu.dram.burst_length 8"},
    {"-dram_data_command_freq_ratio", "2", "gpu.dram.data_rate 4"},
    {"-gpgpu_dram_timing_opt", "4:2:8:12:21:13:34:9:4:5:13:1:0:0",
     "gpu.dram nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12"},
};

// GPGPU-Sim's -gpgpu_mem_address_mask presets (addrdec.cc), used when the config gives no
// -gpgpu_mem_addr_mapping: the channel bit and the bank, row and column masks.
struct address_preset {
  int mask;
  unsigned chip_bit;
  std::uint64_t bank, row, col;
};
const address_preset k_address_presets[] = {
    {0, 10, 0x300, 0x7FFE000, 0x1CFF},  {1, 13, 0x1800, 0x7FFE000, 0x7FF},
    {2, 11, 0x1800, 0x7FFE000, 0x7FF},  {3, 11, 0x1800, 0xFFFE000, 0x7FF},
    {5, 5, 0x1800, 0x7FFE000, 0x7FF},   {6, 6, 0x1800, 0x7FFE000, 0x7FF},
    {14, 14, 0x1800, 0x7FFE000, 0x7FF}, {15, 15, 0x1800, 0x7FFE000, 0x7FF},
    {16, 16, 0x1800, 0x7FFE000, 0x7FF}, {100, 1, 0x3, 0x7FFE000, 0x1FFC},
    {103, 3, 0x3, 0x7FFE000, 0x1FFC},   {106, 6, 0x1800, 0x7FFE000, 0x7FF},
    {160, 6, 0x300, 0x7FFE000, 0x1CFF},
};

std::string preset_map(const address_preset& p) {
  std::string s = "dramid@" + std::to_string(p.chip_bit) + ";";
  for (int bit = 63; bit >= 0; --bit) {
    const std::uint64_t m = std::uint64_t(1) << bit;
    s += (p.bank & m) ? 'B' : (p.row & m) ? 'R' : (p.col & m) ? 'C' : '0';
    if (bit % 8 == 0 && bit != 0) s += '.';
  }
  return s;
}

// ---------------------------------------------------------------------------------------

struct yaml_value {
  std::string text;
  std::string comment;
};

class importer {
 public:
  importer(const std::vector<option_entry>& entries, std::string config_name,
           std::string trace_name)
      : m_config_name(std::move(config_name)), m_trace_name(std::move(trace_name)) {
    for (const option_entry& e : entries) {
      if (!m_opts.count(e.name)) m_order.push_back(e.name);
      m_opts[e.name] = e;  // the last occurrence wins, as in GPGPU-Sim
    }
  }

  imported_platform run() {
    map_structure();
    map_clocks();
    map_control();
    map_core();
    map_units();
    map_trace_latencies();
    map_cache("-gpgpu_cache:dl1", k_l1.path);
    map_l1();
    map_cache("-gpgpu_cache:dl2", k_l2.path);
    map_l2();
    map_dram();
    map_address_map();
    map_icnt();
    map_fixed_behaviour();

    imported_platform r;
    for (const std::string& name : m_order) {
      auto u = m_unmappable.find(name);
      if (u != m_unmappable.end())
        r.unmapped.push_back(name + " (" + join(u->second, "; ") + ")");
      else if (!m_used.count(name))
        r.unmapped.push_back(name);
      if (m_used.count(name)) r.mapped_options.push_back(name);
    }
    r.mapped_keys = m_mapped_keys;
    r.yaml = emit(r.unmapped);
    return r;
  }

 private:
  // ---- Inputs
  const option_entry* get(const std::string& name) const {
    auto it = m_opts.find(name);
    return it == m_opts.end() ? nullptr : &it->second;
  }
  void use(const option_entry& o) { m_used.insert(o.name); }

  [[noreturn]] void bad(const option_entry& o, const std::string& message) const {
    const std::string value = "'" + o.value + "'";
    throw input_error(
        o.value_where, o.name,
        message + (message.find(value) == std::string::npos ? " (value " + value + ")" : ""));
  }
  std::uint64_t number(const option_entry& o, const std::string& text,
                       const std::string& what) const {
    auto v = units::parse_uint(text);
    if (!v || text.empty()) bad(o, what + " must be a non-negative integer, got '" + text + "'");
    return *v;
  }
  std::uint64_t number(const option_entry& o) const {
    return number(o, trim(o.value), "the value");
  }
  bool flag(const option_entry& o) const { return number(o) != 0; }
  // A factor of the chip's structure (clusters, cores, channels, sub-partitions): each is
  // checked itself, so that a product names the factor that is wrong and cannot overflow.
  std::uint64_t structure_count(const option_entry& o) const {
    const std::uint64_t n = number(o);
    if (n < 1 || n > 1024) bad(o, "must be 1 to 1024");
    return n;
  }
  // A list of n unsigned integers separated by `sep`.
  std::vector<std::uint64_t> numbers(const option_entry& o, char sep, std::size_t n,
                                     const std::string& form) const {
    std::vector<std::string> f = split(o.value, sep);
    if (f.size() != n)
      bad(o, "expected " + form + " (" + std::to_string(n) + " fields), got " +
                 std::to_string(f.size()));
    std::vector<std::uint64_t> out;
    for (const std::string& s : f) out.push_back(number(o, s, "each field"));
    return out;
  }

  // ---- Outputs
  // Writes `path` with `text` and a comment; `source` (if any) is recorded in mapped_keys.
  void put(const std::string& path, const std::string& text, const std::string& comment,
           const option_entry* source) {
    m_values[path] = yaml_value{text, comment};
    if (!source) return;
    use(*source);
    for (auto& [k, o] : m_mapped_keys)
      if (k == path) {
        o = source->name;
        return;
      }
    m_mapped_keys.emplace_back(path, source->name);
  }
  // The common case: the option's value, or `detail` (a field of it), in the comment.
  void set(const std::string& path, const std::string& text, const option_entry& o,
           const std::string& detail = "") {
    put(path, text, o.name + " " + (detail.empty() ? o.value : detail), &o);
  }
  void unmappable(const option_entry& o, const std::string& detail) {
    m_unmappable[o.name].push_back(detail);
  }
  void note(const std::string& block, const std::string& text) { m_notes[block].push_back(text); }
  // An option whose value is what gputlm always does: no key, a note in `block`.
  void consume(const option_entry& o, const std::string& block, const std::string& text) {
    use(o);
    note(block, text);
  }
  // An unmappable code whose key keeps gputlm's default: listed, and said so in `block`.
  void unmappable(const option_entry& o, const std::string& detail, const std::string& block,
                  const std::string& text) {
    unmappable(o, detail);
    note(block, text);
  }
  bool has(const std::string& path) const { return m_values.count(path) != 0; }

  // ---- Chip structure: SM, channel and sub-partition counts (needed whatever the config
  // gives: GPGPU-Sim's defaults when it gives nothing).
  void map_structure() {
    const option_entry* clusters = get("-gpgpu_n_clusters");
    const option_entry* per_cluster = get("-gpgpu_n_cores_per_cluster");
    const std::uint64_t nc = clusters ? structure_count(*clusters) : 10;
    const std::uint64_t cpc = per_cluster ? structure_count(*per_cluster) : 3;
    m_sms = nc * cpc;
    const option_entry* sm_source = clusters ? clusters : per_cluster;
    std::string sm_comment =
        (clusters ? clusters->name + " " + clusters->value : "(not set: GPGPU-Sim default 10)") +
        " x " +
        (per_cluster ? per_cluster->name + " " + per_cluster->value
                     : "(not set: GPGPU-Sim default 3)");
    if (per_cluster) use(*per_cluster);
    put("gpu.smx.count", std::to_string(m_sms), sm_comment, sm_source);
    // (The scheduler's TBCR sockets, the KMU's launch paths and the crossbar's SM ports are
    // one per SM, sized by the bindings; GPGPU-Sim's crossbar has one port per cluster,
    // which smx_per_port models.)
    (void)nc;
    put("gpu.icnt.smx_per_port", std::to_string(cpc),
        (per_cluster ? per_cluster->name + " " + per_cluster->value
                     : std::string("(not set: GPGPU-Sim default 3)")) +
            ": the SMs of a cluster share its crossbar port",
        per_cluster);

    const option_entry* mem = get("-gpgpu_n_mem");
    const option_entry* subs = get("-gpgpu_n_sub_partition_per_mchannel");
    m_channels = mem ? structure_count(*mem) : 8;
    m_subs = subs ? structure_count(*subs) : 1;
    const std::string mem_text =
        mem ? mem->name + " " + mem->value : "(not set: GPGPU-Sim default 8)";
    const std::string subs_text =
        subs ? subs->name + " " + subs->value : "(not set: GPGPU-Sim default 1)";
    const std::string banks = std::to_string(m_channels * m_subs);
    put("gpu.dram.count", std::to_string(m_channels), mem_text, mem);
    put("gpu.dram.channels", std::to_string(m_channels),
        "= count = " + mem_text + " (strips the channel bits)", mem);
    const option_entry* bank_source = mem ? mem : subs;
    if (subs) use(*subs);
    const std::string bank_comment = mem_text + " x " + subs_text + " sub-partitions";
    put("gpu.l2.count", banks, bank_comment, bank_source);
    put("gpu.l2_ni.count", banks, "one per L2 bank: " + bank_comment, bank_source);
    put("gpu.icnt.mem_channels", std::to_string(m_channels), "= dram.count = " + mem_text, mem);
  }

  void map_clocks() {
    const char* names[] = {"core", "icnt", "l2", "dram"};
    const char* what[] = {"core", "interconnect", "L2", "DRAM command clock"};
    const option_entry* o = get("-gpgpu_clock_domains");
    if (!o) {
      const double defaults[] = {500, 2000, 2000, 2000};
      for (int i = 0; i < 4; ++i)
        put("clocks." + std::string(names[i]) + ".frequency", mhz_text(defaults[i]),
            "(not set: GPGPU-Sim default 500:2000:2000:2000)", nullptr);
      return;
    }
    std::vector<std::string> f = split(o->value, ':');
    if (f.size() != 4)
      bad(*o,
          "expected <core>:<icnt>:<L2>:<DRAM> in MHz (4 fields), got " + std::to_string(f.size()));
    for (int i = 0; i < 4; ++i) {
      auto mhz = units::parse_double(f[i]);
      if (!mhz || !(*mhz > 0) || f[i].empty())
        bad(*o, "the " + std::string(what[i]) +
                    " frequency must be a positive number of MHz, got '" + f[i] + "'");
      set("clocks." + std::string(names[i]) + ".frequency", mhz_text(*mhz), *o,
          o->value + " (" + what[i] + ")");
    }
  }

  void map_control() {
    if (auto* o = get("-gpgpu_kernel_launch_latency"))
      set("gpu.kmu.kernel_launch_latency", cyc(number(*o)), *o);
    if (auto* o = get("-gpgpu_max_concurrent_kernel"))
      set("gpu.kd.entries", std::to_string(number(*o)), *o);
    if (auto* o = get("-gpgpu_TB_launch_latency"))
      set("gpu.smx_scheduler.tb_launch_latency", cyc(number(*o)), *o);
    if (auto* o = get("-gpgpu_concurrent_kernel_sm"))
      set("gpu.smx_scheduler.concurrent_kernels_per_smx", bool_text(flag(*o)), *o);
  }

  void map_core() {
    const std::string smx = "gpu.smx.";
    if (auto* o = get("-gpgpu_shader_core_pipeline")) {
      auto v = numbers(*o, ':', 2, "<threads per SM>:<warp size>");
      set(smx + "max_threads", std::to_string(v[0]), *o);
      set(smx + "warp_size", std::to_string(v[1]), *o);
    }
    if (auto* o = get("-gpgpu_shader_cta")) set(smx + "max_tbs", std::to_string(number(*o)), *o);
    if (auto* o = get("-gpgpu_shader_registers"))
      set(smx + "registers", std::to_string(number(*o)), *o);
    // The per-TB limits are device properties in GPGPU-Sim (what cudaGetDeviceProperties
    // reports), not inputs of its occupancy: a trace's launches fitted the GPU it was
    // recorded on, and gputlm bounds occupancy by the SM's totals, as GPGPU-Sim does.
    for (const char* name : {"-gpgpu_registers_per_block", "-gpgpu_shmem_per_block"})
      if (auto* o = get(name))
        consume(*o, k_smx.path,
                o->name + " " + o->value + ": a device property, not an occupancy limit");
    if (auto* o = get("-gpgpu_shmem_size")) set(smx + "shared_memory", size_text(number(*o)), *o);
    if (auto* o = get("-gpgpu_shmem_num_banks"))
      set(smx + "shared_memory_banks", std::to_string(number(*o)), *o);
    if (auto* o = get("-gpgpu_smem_latency"))
      set(smx + "shared_memory_latency", cyc(number(*o)), *o);

    if (auto* o = get("-gpgpu_num_sched_per_core"))
      set(smx + "warp_schedulers", std::to_string(number(*o)), *o);
    if (auto* o = get("-gpgpu_scheduler")) {
      // GPGPU-Sim matches these names anywhere in the value, in this order.
      const std::string& v = o->value;
      auto in = [&](const char* s) { return v.find(s) != std::string::npos; };
      if (in("lrr"))
        set(smx + "scheduler_policy", "lrr", *o);
      else if (in("two_level_active") ||
               (!in("gto") && (in("rrr") || in("old") || in("warp_limiting"))))
        unmappable(*o, v, k_smx.path,
                   "scheduler_policy: " + o->name + " " + v +
                       " has no gputlm policy (lrr, gto); gputlm's default (gto) is used");
      else if (in("gto"))
        set(smx + "scheduler_policy", "gto", *o);
      else
        bad(*o, "unknown warp scheduler (lrr, gto, two_level_active, rrr, old, warp_limiting)");
    }
    if (auto* o = get("-gpgpu_max_insn_issue_per_warp"))
      set(smx + "max_issue_per_warp", std::to_string(number(*o)), *o);
    if (auto* o = get("-gpgpu_dual_issue_diff_exec_units"))
      set(smx + "dual_issue_different_units", bool_text(flag(*o)), *o);
    if (auto* o = get("-gpgpu_sub_core_model"))
      set(smx + "sub_core_model", bool_text(flag(*o)), *o);
    // GPGPU-Sim's front end (shader.cc): that many warps fetched a cycle, each only when its
    // buffer is empty, two instructions decoded into its two-entry buffer (ibuffer_entries'
    // default).
    if (auto* o = get("-gpgpu_inst_fetch_throughput"))
      set(smx + "fetch_warps", std::to_string(number(*o)), *o);
    map_instruction_cache(smx);
    put(smx + "fetch_width", "2", "GPGPU-Sim decode(): two instructions per fetch", nullptr);
    put(smx + "fetch_when_empty", "true", "GPGPU-Sim fetch(): only a warp whose buffer is empty",
        nullptr);
    put(smx + "atomic_wait", "true",
        "GPGPU-Sim shd_warp_t::waiting(): a warp with atomics in flight issues nothing", nullptr);
    if (auto* o = get("-gpgpu_num_reg_banks"))
      set(smx + "register_banks", std::to_string(number(*o)), *o);
    if (auto* o = get("-gpgpu_reg_file_port_throughput"))
      set(smx + "register_port_throughput", std::to_string(number(*o)), *o);
    map_collectors();
    map_pipeline_widths();

    if (auto* o = get("-gpgpu_coalesce_arch")) {
      const std::uint64_t a = number(*o);
      const std::uint64_t exact[] = {20, 35, 60, 61, 70};
      if (std::find(std::begin(exact), std::end(exact), a) != std::end(exact)) {
        set(smx + "coalescing_arch", std::to_string(a), *o);
      } else if ((a >= 20 && a < 39) || a >= 40) {
        // GPGPU-Sim has two rule sets: 20 <= arch < 39 and arch >= 40.
        const std::uint64_t v = a < 35 ? 20 : a < 39 ? 35 : a <= 60 ? 60 : a < 70 ? 61 : 70;
        set(smx + "coalescing_arch", std::to_string(v), *o,
            o->value + " (GPGPU-Sim treats " + (a < 39 ? "20..38" : "every arch >= 40") +
                " alike)");
      } else {
        unmappable(*o, o->value);
      }
    }
  }

  void map_collectors() {
    const std::string smx = "gpu.smx.";
    const option_entry* enable = get("-gpgpu_enable_specialized_operand_collector");
    const bool specialized = enable ? flag(*enable) : true;  // GPGPU-Sim default: on
    const char* units[][2] = {{"sp", "collectors_sp"},   {"sfu", "collectors_sfu"},
                              {"mem", "collectors_mem"}, {"dp", nullptr},
                              {"int", nullptr},          {"tensor_core", nullptr}};
    for (const auto& u : units) {
      const option_entry* o = get(std::string("-gpgpu_operand_collector_num_units_") + u[0]);
      if (!specialized) {
        if (u[1]) put(smx + u[1], "0", enable->name + " " + enable->value, enable);
        if (o) use(*o);  // no effect without specialised collectors
        continue;
      }
      if (!o) continue;
      const std::uint64_t n = number(*o);
      if (u[1])
        set(smx + u[1], std::to_string(n), *o);
      else if (n == 0)
        use(*o);
      else
        unmappable(*o, o->value + " " + u[0] + " collector units: none in gputlm");
    }
    if (enable) use(*enable);
    if (auto* o = get("-gpgpu_operand_collector_num_units_gen"))
      set(smx + "collectors_generic", std::to_string(number(*o)), *o);
  }

  // The pipeline registers are left unbounded on an import: the model's are per type (SP,
  // SFU, MEM), GPGPU-Sim's per unit class, with EX_WB besides (docs/core.md).
  void map_pipeline_widths() {
    if (auto* tensor = get("-gpgpu_tensor_core_avail")) use(*tensor);
    if (auto* o = get("-gpgpu_pipeline_widths"))
      unmappable(
          *o, "pipeline registers are left unbounded: set smx.id_oc_widths and smx.oc_ex_widths");
  }

  void map_units() {
    const char* units[][2] = {{"-gpgpu_num_sp_units", "sp_units"},
                              {"-gpgpu_num_sfu_units", "sfu_units"},
                              {"-gpgpu_num_dp_units", "dp_units"},
                              {"-gpgpu_num_int_units", "int_units"},
                              {"-gpgpu_num_tensor_core_units", "tensor_units"}};
    for (const auto& u : units)
      if (auto* o = get(u[0])) set(std::string("gpu.smx.") + u[1], std::to_string(number(*o)), *o);
  }

  // Accel-Sim trace.config: `latency,initiation` per unit class; branches run at the int
  // values unless a specialised BRA unit is configured (trace_driven.cc set_latency).
  void map_trace_latencies() {
    auto pair = [&](const option_entry& o) { return numbers(o, ',', 2, "<latency>,<initiation>"); };
    for (const char* cls : {"int", "sp", "dp", "sfu", "tensor"}) {
      if (auto* o = get(std::string("-trace_opcode_latency_initiation_") + cls)) {
        auto v = pair(*o);
        set(std::string("gpu.smx.") + cls + "_latency", cyc(v[0]), *o);
        set(std::string("gpu.smx.") + cls + "_initiation", cyc(v[1]), *o);
      }
    }
    // Specialised units 1..8, taken in order up to the first disabled one (gpu-sim.cc).
    bool branch_unit = false;
    for (int n = 1; n <= 8; ++n) {
      const option_entry* o = get("-specialized_unit_" + std::to_string(n));
      if (!o) break;
      std::vector<std::string> f = split(o->value, ',');
      if (f.size() != 6 || f[5].empty())
        bad(*o, "expected <enabled>,<units>,<max latency>,<ID_OC width>,<OC_EX width>,<NAME>");
      for (int i = 0; i < 5; ++i) number(*o, f[i], "each number");
      if (number(*o, f[0], "enabled") == 0) {
        use(*o);
        note(k_smx.path, o->name + " " + o->value + ": disabled (it and later units unused)");
        break;
      }
      std::string name = f[5];
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      const char* cls = name == "BRA" ? "branch" : name == "TENSOR" ? "tensor" : nullptr;
      if (!cls) {
        unmappable(*o, "unit " + f[5]);
        continue;
      }
      branch_unit = branch_unit || name == "BRA";
      const std::string units = std::string("gpu.smx.") + cls + "_units";
      std::string detail = o->value + " (unit " + std::to_string(n) + " " + f[5] + ")";
      if (has(units) && name == "TENSOR") detail += ", replaces " + m_values[units].comment;
      set(units, f[1], *o, detail);
      const option_entry* lat =
          get("-trace_opcode_latency_initiation_spec_op_" + std::to_string(n));
      std::vector<std::uint64_t> v{4, 4};  // Accel-Sim's default
      if (lat) v = pair(*lat);
      for (const char* part : {"_latency", "_initiation"}) {
        const std::string path = std::string("gpu.smx.") + cls + part;
        const std::string value = cyc(part[1] == 'l' ? v[0] : v[1]);
        std::string replaced =
            has(path) && name == "TENSOR" ? ", replaces " + m_values[path].comment : "";
        if (lat)
          set(path, value, *lat,
              lat->value + " (unit " + std::to_string(n) + " " + f[5] + ")" + replaced);
        else
          put(path, value,
              "(" + o->name + " " + f[5] + ": latency,initiation not set, Accel-Sim default 4,4)" +
                  replaced,
              o);
      }
    }
    if (!branch_unit)
      if (auto* o = get("-trace_opcode_latency_initiation_int")) {
        auto v = pair(*o);
        const std::string why = "= int: " + o->name + " " + o->value +
                                " (Accel-Sim runs branches at the int values without a BRA unit)";
        put("gpu.smx.branch_latency", cyc(v[0]), why, o);
        put("gpu.smx.branch_initiation", cyc(v[1]), why, o);
      }
  }

  // ---- Caches: <type>:<sets>:<line>:<ways>,<repl>:<write>:<alloc>:<wr_alloc>:<index>,
  // <mshr>:<entries>:<merge>[,<miss_queue>[:<fifo>][,<port>]] (gpu-cache.h), and the 3.x
  // forms without the type letter or the index letter (docs/references.md,
  // "Cache configuration string").
  // The L1 instruction cache (models/core/instruction_cache.h): -gpgpu_cache:il1's sets, line
  // and ways and its MSHR's entries and merges; modelled unless
  // -gpgpu_perfect_inst_const_cache is set (GPGPU-Sim's default 0 models it).
  void map_instruction_cache(const std::string& smx) {
    if (auto* o = get("-gpgpu_perfect_inst_const_cache"))
      set(smx + "icache_perfect", bool_text(flag(*o)), *o);
    else
      put(smx + "icache_perfect", "false",
          "GPGPU-Sim's default -gpgpu_perfect_inst_const_cache 0: the L1I is modelled", nullptr);
    const option_entry* o = get("-gpgpu_cache:il1");
    if (!o) return;
    const std::vector<std::string> groups = split(trim(o->value), ',');
    std::vector<std::string> g1 =
        groups.empty() ? std::vector<std::string>{} : split(groups[0], ':');
    if (g1.size() == 3) g1.insert(g1.begin(), "N");  // the 3.x strings have no type letter
    if (groups.size() < 3 || g1.size() != 4)
      bad(*o, "expected <type>:<sets>:<line>:<ways>,<policies>,<mshr>:<entries>:<merge>,...");
    const std::vector<std::string> g3 = split(groups[2], ':');
    if (g3.size() != 3) bad(*o, "the MSHR group needs <mshr>:<entries>:<merge>");
    const std::uint64_t sets = number(*o, g1[1], "sets"), line = number(*o, g1[2], "line size"),
                        ways = number(*o, g1[3], "ways");
    if (sets < 1 || sets > 65536) bad(*o, "sets must be 1 to 65536");
    if (line != 32 && line != 64 && line != 128) bad(*o, "line size must be 32, 64 or 128");
    if (ways < 1 || ways > 1024) bad(*o, "ways must be 1 to 1024");
    const std::uint64_t entries = number(*o, g3[1], "MSHR entries"),
                        merge = number(*o, g3[2], "MSHR merges");
    if (entries < 1 || entries > 1024) bad(*o, "MSHR entries must be 1 to 1024");
    if (merge < 1 || merge > 1024) bad(*o, "MSHR merges must be 1 to 1024");
    set(smx + "icache_sets", std::to_string(sets), *o);
    set(smx + "icache_ways", std::to_string(ways), *o);
    set(smx + "icache_line_size", std::to_string(line) + "B", *o);
    set(smx + "icache_mshr_entries", std::to_string(entries), *o);
    set(smx + "icache_mshr_merge", std::to_string(merge), *o);
  }

  void map_cache(const char* option, const std::string& block) {
    const option_entry* po = get(option);
    if (!po) return;
    const option_entry& o = *po;
    const std::string v = trim(o.value);
    const std::string grammar =
        "expected <type>:<sets>:<line>:<ways>,<repl>:<write>:<alloc>:<wr_alloc>:<index>,"
        "<mshr>:<entries>:<merge>,<miss_queue>[:<fifo>][,<port>]";
    if (v == "none") {
      unmappable(o, "none: no cache", block,
                 o.name +
                     " none: GPGPU-Sim runs without this cache; gputlm has no such mode, "
                     "so the cache keeps gputlm's defaults");
      return;
    }
    std::vector<std::string> groups = split(v, ',');
    if (groups.size() < 3 || groups.size() > 5)
      bad(o, grammar + "; has " + std::to_string(groups.size()) + " comma-separated groups");
    std::vector<std::string> g1 = split(groups[0], ':');
    std::vector<std::string> g2 = split(groups[1], ':');
    std::vector<std::string> g3 = split(groups[2], ':');
    auto is_number = [](const std::string& s) {
      return !s.empty() &&
             std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
    };
    bool legacy_type = false, legacy_index = false;
    if (g1.size() == 3 && is_number(g1[0])) {
      g1.insert(g1.begin(), "N");
      legacy_type = true;
    }
    if (g1.size() != 4)
      bad(o, grammar + "; the first group needs <type>:<sets>:<line>:<ways>, has " +
                 std::to_string(g1.size()) + " fields");
    if (legacy_type && g2.size() == 4) {  // the oldest 3.x strings have no index letter either
      g2.push_back("L");
      legacy_index = true;
    }
    if (g2.size() != 5)
      bad(o, grammar + "; the second group needs <repl>:<write>:<alloc>:<wr_alloc>:<index>, has " +
                 std::to_string(g2.size()) + " fields");
    if (g3.size() != 3)
      bad(o, grammar + "; the third group needs <mshr>:<entries>:<merge>, has " +
                 std::to_string(g3.size()) + " fields");
    // The code's position in `allowed`, or an error.
    auto letter = [&](const std::string& s, const char* what, std::string_view allowed) {
      if (s.size() != 1 || allowed.find(s[0]) == std::string_view::npos)
        bad(o, std::string("the ") + what + " must be one of " + std::string(allowed) + ", got '" +
                   s + "'");
      return s[0];
    };
    auto position = [](std::string_view allowed, char c) { return allowed.find(c); };
    const char type = letter(g1[0], "cache type", "NS");
    const std::uint64_t sets = number(o, g1[1], "the set count");
    const std::uint64_t line = number(o, g1[2], "the line size");
    const std::uint64_t ways = number(o, g1[3], "the associativity");
    const char repl = letter(g2[0], "replacement policy", "LF");
    const char write = letter(g2[1], "write policy", "RBTEL");
    const char alloc = letter(g2[2], "allocation policy", "mfs");
    const char wr_alloc = letter(g2[3], "write-allocate policy", "NWFL");
    const char index = letter(g2[4], "set index function", "LHPXC");
    const char mshr = letter(g3[0], "MSHR type", "ASFT");
    const std::uint64_t entries = number(o, g3[1], "the MSHR entry count");
    const std::uint64_t merge = number(o, g3[2], "the MSHR merge limit");
    const std::uint64_t bound = std::uint64_t(1) << 32;  // GPGPU-Sim reads them as %u
    if (sets >= bound || line >= bound || ways >= bound)
      bad(o, "sets, line size and ways must each be below 2^32");

    note(block, o.name + " " + v + (legacy_type || legacy_index ? " (3.x form)" : ""));
    auto field = [&](const std::string& code, const char* label) {
      return code + " (" + label + ")";
    };
    const std::string b = block + ".";
    set(b + "size", size_text(sets * line * ways), o,
        "= sets x ways x line_size = " + std::to_string(sets) + " x " + std::to_string(ways) +
            " x " + std::to_string(line));
    set(b + "sets", std::to_string(sets), o, field(g1[1], "sets"));
    set(b + "ways", std::to_string(ways), o, field(g1[3], "ways"));
    set(b + "line_size", size_text(line), o, field(g1[2], "line size"));
    set(b + "sectored", bool_text(type == 'S'), o,
        legacy_type ? "3.x form, no type letter (not sectored)" : field(g1[0], "type"));
    set(b + "replacement", repl == 'L' ? "lru" : "fifo", o, field(g2[0], "replacement"));
    const char* write_names[] = {"read_only", "write_back", "write_through", "write_evict",
                                 "local_wb_global_evict"};
    set(b + "write_policy", write_names[position("RBTEL", write)], o, field(g2[1], "write policy"));
    set(b + "allocate",
        alloc == 'm'   ? "on_miss"
        : alloc == 'f' ? "on_fill"
                       : "streaming",
        o, field(g2[2], "allocation"));
    const char* wr_alloc_names[] = {"none", "naive", "fetch_on_write", "lazy_fetch_on_read"};
    set(b + "write_allocate", wr_alloc_names[position("NWFL", wr_alloc)], o,
        field(g2[3], "write-allocate"));
    if (index == 'C') {
      unmappable(o, "set index C");
      note(block, "set_index: " + o.name +
                      " C (custom, not implemented in GPGPU-Sim) has no "
                      "gputlm equivalent; gputlm's default (linear) is used");
    } else {
      const char* name = index == 'L'   ? "linear"
                         : index == 'H' ? "fermi_hash"
                         : index == 'P' ? "ipoly"
                                        : "xor";
      set(b + "set_index", name, o,
          legacy_index ? std::string("3.x form, no index letter (linear)")
                       : field(g2[4], "set index"));
    }
    // gputlm's MSHRs merge requests by line (GPGPU-Sim's A); a sectored cache's line request
    // is answered once, so S behaves the same; the texture FIFOs have no equivalent.
    if (mshr == 'F' || mshr == 'T') {
      unmappable(o, std::string("MSHR type ") + mshr);
      note(block, o.name + " MSHR type " + mshr +
                      " (texture FIFO) has no gputlm equivalent; "
                      "gputlm's MSHRs merge by line");
    } else {
      note(block, o.name + " MSHR type " + mshr + ": gputlm's MSHRs merge by line");
    }
    set(b + "mshr_entries", std::to_string(entries), o, field(g3[1], "MSHR entries"));
    set(b + "mshr_merge", std::to_string(merge), o, field(g3[2], "MSHR merge"));

    std::uint64_t port = 0;
    std::string port_detail;
    if (groups.size() >= 4) {
      std::vector<std::string> g4 = split(groups[3], ':');
      if (g4.size() > 2)
        bad(o, grammar + "; the fourth group needs <miss_queue>[:<fifo>], has " +
                   std::to_string(g4.size()) + " fields");
      const std::uint64_t miss_queue = number(o, g4[0], "the miss queue size");
      if (block == k_l1.path)
        set(b + "miss_queue", std::to_string(miss_queue), o, field(g4[0], "miss queue"));
      else  // the L2's queue towards DRAM is -gpgpu_dram_partition_queues' L2->DRAM
        note(block,
             o.name + " miss queue " + g4[0] + ": the L2's queue to DRAM is l2_to_dram_queue");
      if (g4.size() == 2) number(o, g4[1], "the result FIFO size");
      if (groups.size() == 5) {
        port = number(o, groups[4], "the data port width");
        port_detail = port ? field(groups[4], "data port") : "0 (data port): the line size";
        if (g4.size() == 1) {
          // GPGPU-Sim's sscanf stops at the missing ':<fifo>' and never reads the port.
          port = 0;
          port_detail = groups[4] + " ignored by GPGPU-Sim (no ':<fifo>' before it): the line size";
        }
      }
    }
    if (port == 0) {
      port = line;
      if (port_detail.empty()) port_detail = "no data port field: the line size";
    }
    set(b + "data_port_width", size_text(port), o, port_detail);
  }

  void map_l1() {
    const std::string l1 = "gpu.smx.l1.";
    if (auto* o = get("-gpgpu_l1_banks")) {
      set(l1 + "banks", std::to_string(number(*o)), *o);
      // With an L1 latency queue (-gpgpu_l1_latency > 0, its default 1) the LDST unit puts up
      // to l1_banks requests a cycle into it, one per bank (process_memory_access_queue_l1cache).
      const option_entry* lat = get("-gpgpu_l1_latency");
      const std::uint64_t per_cycle = lat && number(*lat) == 0 ? 1 : number(*o);
      set(l1 + "lookups_per_cycle", std::to_string(per_cycle), *o);
      set("gpu.smx.l1_requests_per_cycle", std::to_string(per_cycle), *o);
    }
    if (auto* o = get("-gpgpu_l1_banks_byte_interleaving"))
      set(l1 + "bank_interleave", size_text(number(*o)), *o);
    if (auto* o = get("-gpgpu_l1_banks_hashing_function")) {
      if (number(*o) == 0) {
        use(*o);
        note(k_l1.path, o->name + " 0: linear bank selection, as gputlm's");
      } else {
        unmappable(*o, o->value);
      }
    }
    if (auto* o = get("-gpgpu_l1_latency")) {  // hits and misses both pass the L1's pipeline
      set(l1 + "hit_latency", cyc(number(*o)), *o);
      set(l1 + "miss_latency", cyc(number(*o)), *o);
    }
    if (auto* o = get("-gpgpu_gmem_skip_L1D")) {  // every global access (ldst_unit::memory_cycle)
      set(l1 + "bypass_global_loads", bool_text(flag(*o)), *o);
      set(l1 + "bypass_global_stores", bool_text(flag(*o)), *o);
    }
    if (auto* o = get("-gpgpu_flush_l1_cache"))
      set(l1 + "flush_at_kernel_end", bool_text(flag(*o)), *o);
    if (auto* o = get("-gpgpu_l1_cache_write_ratio"))
      set(l1 + "dirty_line_cap", std::to_string(number(*o)), *o);
    // Volta's unified L1/shared array: with the adaptive config each kernel's L1 is what its
    // shared memory leaves of -gpgpu_unified_l1d_size (KB), in -gpgpu_shmem_option steps.
    const option_entry* adaptive = get("-gpgpu_adaptive_cache_config");
    if (adaptive && flag(*adaptive)) {
      set("gpu.smx.unified_l1", "true", *adaptive);
      if (auto* o = get("-gpgpu_unified_l1d_size"))
        set(l1 + "unified_size", size_text(number(*o) * 1024), *o);
      if (auto* o = get("-gpgpu_shmem_option")) set(l1 + "shared_options", o->value, *o);
    } else {
      if (adaptive) set("gpu.smx.unified_l1", "false", *adaptive);
      for (const char* name : {"-gpgpu_unified_l1d_size", "-gpgpu_shmem_option"})
        if (auto* o = get(name))
          consume(*o, k_l1.path, o->name + ": used only with the adaptive config, which is off");
    }
  }

  void map_l2() {
    const std::string l2 = "gpu.l2.";
    if (auto* o = get("-gpgpu_l2_rop_latency")) set(l2 + "rop_latency", cyc(number(*o)), *o);
    if (auto* o = get("-dram_latency")) set(l2 + "dram_latency", cyc(number(*o)), *o);
    if (auto* o = get("-gpgpu_dram_partition_queues")) {
      auto q = numbers(*o, ':', 4, "<icnt->L2>:<L2->DRAM>:<DRAM->L2>:<L2->icnt>");
      // DRAM->L2 (the third): a fill is written into the L2 when it arrives (docs/memory.md).
      const char* keys[] = {"icnt_to_l2_queue", "l2_to_dram_queue", nullptr, "l2_to_icnt_queue"};
      const char* what[] = {"icnt->L2", "L2->DRAM", "DRAM->L2", "L2->icnt"};
      for (int i = 0; i < 4; ++i)
        if (keys[i]) set(l2 + keys[i], std::to_string(q[i]), *o, o->value + " (" + what[i] + ")");
      note(k_l2.path,
           o->name + " DRAM->L2 " + std::to_string(q[2]) + ": fills are written as they arrive");
    }
    if (auto* o = get("-gpgpu_cache:dl2_texture_only")) {
      if (flag(*o))
        unmappable(*o, "1: L2 for texture only");
      else
        consume(*o, k_l2.path, o->name + " 0: the L2 caches every access, as gputlm's");
    }
    if (auto* o = get("-gpgpu_perf_sim_memcpy")) {
      if (!flag(*o)) {
        set(l2 + "warm_from_memcpy", "false", *o);
      } else {
        note(k_l2.path, o->name +
                            " 1 not carried over: Accel-Sim's MemcpyHtoD warm-up is "
                            "effectively inactive (yaml/fermi.yaml), so warm_from_memcpy "
                            "stays off");
      }
    }
  }

  void map_dram() {
    const std::string d = "gpu.dram.";
    put(d + "sector_atoms", "true",
        "GPGPU-Sim's sectored L2 sends DRAM one request per 32 B sector", nullptr);
    if (auto* o = get("-gpgpu_n_mem_per_ctrlr")) set(d + "chips", std::to_string(number(*o)), *o);
    if (auto* o = get("-gpgpu_dram_buswidth")) set(d + "bus_width", size_text(number(*o)), *o);
    if (auto* o = get("-gpgpu_dram_burst_length"))
      set(d + "burst_length", std::to_string(number(*o)), *o);
    if (auto* o = get("-dram_data_command_freq_ratio"))
      set(d + "data_rate", std::to_string(number(*o)), *o);
    note(k_dram.path,
         "kind: GPGPU-Sim's options do not name the DRAM technology; gputlm's "
         "default is kept");
    if (auto* o = get("-gpgpu_dram_timing_opt")) map_dram_timing(*o);
    if (auto* o = get("-gpgpu_dram_scheduler")) {
      const std::uint64_t v = number(*o);
      if (v <= 1)
        set(d + "scheduler", v ? "fr_fcfs" : "fcfs", *o);
      else
        unmappable(*o, o->value);
    }
    auto queue = [&](const char* option, const char* key) {
      if (auto* o = get(option)) {
        if (const std::uint64_t v = number(*o))
          set(d + key, std::to_string(v), *o);
        else
          unmappable(*o, "0 = unlimited", k_dram.path,
                     std::string(key) + ": " + option +
                         " 0 (unlimited) has no gputlm equivalent; gputlm's default is used");
      }
    };
    queue("-gpgpu_frfcfs_dram_sched_queue_size", "queue_depth");
    queue("-gpgpu_dram_return_queue_size", "return_queue");
    if (auto* o = get("-dram_dual_bus_interface")) set(d + "dual_bus", bool_text(flag(*o)), *o);
    // A separate write queue drained between watermarks is not modelled.
    if (auto* o = get("-dram_seperate_write_queue_enable")) {
      if (flag(*o))
        unmappable(*o, "1: the write queue and its drain are not modelled");
      else
        consume(*o, k_dram.path, o->name + " 0: one queue for reads and writes, as gputlm's");
    }
    if (auto* o = get("-dram_write_queue_size")) {
      numbers(*o, ':', 3, "<size>:<high watermark>:<low watermark>");
      unmappable(*o, "the write queue is not modelled");
    }
    auto policy = [&](const char* option, const char* key, const char* zero, const char* one) {
      if (auto* o = get(option)) {
        const std::uint64_t v = number(*o);
        if (v <= 1)
          set(d + key, v ? one : zero, *o);
        else
          unmappable(*o, o->value);
      }
    };
    policy("-dram_bnk_indexing_policy", "bank_indexing", "plain", "xor");
    policy("-dram_bnkgrp_indexing_policy", "bank_group_indexing", "high_bits", "low_bits");
    if (auto* o = get("-dram_elimnate_rw_turnaround")) {
      if (flag(*o))
        unmappable(*o, "1: no read/write turnaround");
      else
        consume(*o, k_dram.path,
                o->name + " 0: turnarounds derived from CL, WL, BL as gputlm does");
    }
  }

  // nbk=16:CCD=2:... in any order (separators = : ;), or the legacy positional form
  // nbk:tCCD:tRRD:tRCD:tRAS:tRP:tRC:CL:WL:tCDLR:tWR[:nbkgrp:tCCDL:tRTPL] (gpu-sim.h).
  void map_dram_timing(const option_entry& o) {
    const char* names[] = {"nbk", "CCD", "RRD",  "RCD", "RAS",    "RP",   "RC",
                           "CL",  "WL",  "CDLR", "WR",  "nbkgrp", "CCDL", "RTPL"};
    const char* keys[] = {"banks", "tCCD", "tRRD",  "tRCD", "tRAS",        "tRP",   "tRC",
                          "CL",    "WL",   "tCDLR", "tWR",  "bank_groups", "tCCDL", "tRTPL"};
    auto index_of = [&](const std::string& n) {
      for (int i = 0; i < 14; ++i)
        if (n == names[i]) return i;
      return -1;
    };
    std::string v = o.value;
    std::string shown;  // a quoted value spanning lines, without its line breaks
    for (char c : v)
      if (!is_space(c)) shown += c;
    note(k_dram.path, o.name + " " + shown);
    std::vector<std::pair<int, std::string>> given;  // (field, value text)
    if (v.find('=') != std::string::npos) {
      for (char& c : v)
        if (c == '=' || c == ':' || c == ';') c = ' ';
      std::istringstream words(v);
      std::string name, value;
      while (words >> name) {
        const int i = index_of(name);
        if (i < 0)
          bad(o, "unknown DRAM timing '" + name +
                     "' (nbk CCD RRD RCD RAS RP RC CL WL CDLR WR "
                     "nbkgrp CCDL RTPL)");
        if (!(words >> value)) bad(o, "DRAM timing '" + name + "' has no value");
        given.emplace_back(i, value);
      }
    } else {
      std::string compact;
      for (char c : v)
        if (!is_space(c)) compact += c;
      std::vector<std::string> f = split(compact, ':');
      if (f.size() < 11 || f.size() > 14)
        bad(o,
            "expected nbk=..:CCD=..:... or the positional "
            "nbk:tCCD:tRRD:tRCD:tRAS:tRP:tRC:CL:WL:tCDLR:tWR[:nbkgrp:tCCDL:tRTPL], got " +
                std::to_string(f.size()) + " fields");
      for (std::size_t i = 0; i < f.size(); ++i) given.emplace_back(static_cast<int>(i), f[i]);
    }
    for (const auto& [i, text] : given) {
      const std::uint64_t n = number(o, text, std::string("DRAM timing ") + names[i]);
      const bool count = i == 0 || i == 11;
      set(std::string("gpu.dram.") + keys[i], count ? std::to_string(n) : cyc(n), o,
          std::string(names[i]) + "=" + text);
    }
  }

  // -gpgpu_mem_addr_mapping (or a -gpgpu_mem_address_mask preset): the DRAM's map, repeated
  // under the interconnect, which routes by it.
  void map_address_map() {
    const option_entry* mapping = get("-gpgpu_mem_addr_mapping");
    const option_entry* mask = get("-gpgpu_mem_address_mask");
    std::string map;
    const option_entry* source = nullptr;
    std::string detail;
    if (mapping) {
      if (mask) {
        use(*mask);
        note(k_dram.path,
             mask->name + " " + mask->value + ": superseded by -gpgpu_mem_addr_mapping");
      }
      // GPGPU-Sim takes letters in either case and ignores '|' and ' ' (addrdec.cc).
      std::string v = trim(mapping->value), prefix;
      if (v.rfind("dramid@", 0) == 0) {
        const std::size_t semi = v.find(';');
        prefix = v.substr(0, semi == std::string::npos ? v.size() : semi + 1);
        v = semi == std::string::npos ? "" : v.substr(semi + 1);
      }
      std::string letters;
      for (char c : v)
        if (c != '|' && !is_space(c))
          letters += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (letters.find('D') != std::string::npos) {
        unmappable(*mapping, "explicit D channel bits");
        note(k_dram.path,
             "address_map: " + mapping->name +
                 " uses explicit D channel bits, which "
                 "gputlm does not take (it needs dramid@<bit>); gputlm's default is used");
        return;
      }
      map = prefix + letters;
      source = mapping;
      detail = mapping->value;
      const std::string err = memory::address_decoder::check(map);
      if (!err.empty()) bad(*mapping, "bad address map: " + err);
    } else if (mask) {
      const std::uint64_t m = number(*mask);
      const address_preset* p = nullptr;
      for (const address_preset& q : k_address_presets)
        if (static_cast<std::uint64_t>(q.mask) == m) p = &q;
      if (!p) {
        unmappable(*mask, mask->value);
        return;
      }
      map = preset_map(*p);
      source = mask;
      detail = mask->value + " (GPGPU-Sim's preset map)";
    } else {
      return;
    }
    set("gpu.dram.address_map", "\"" + map + "\"", *source, detail);
    set("gpu.icnt.address_map", "\"" + map + "\"", *source, detail + " (= dram.address_map)");
  }

  void map_icnt() {
    const std::string x = "gpu.icnt.";
    const option_entry* mode = get("-network_mode");
    const bool local_xbar = mode && number(*mode) == 2;  // GPGPU-Sim default: 1 (BookSim)
    if (mode) {
      if (local_xbar)
        consume(*mode, k_icnt.path,
                mode->name + " 2: GPGPU-Sim's local crossbar, modelled by gputlm's crossbar");
      else
        unmappable(*mode, mode->value +
                              " = BookSim: its .icnt file is not read (the crossbar's "
                              "internal_speedup, serial_inputs, allocation_steps and "
                              "output_speedup keep their defaults; yaml/fermi.yaml sets them "
                              "for the shipped .icnt files)");
    }
    // A sectored L2's sub-partition breaks a multi-sector request into sector requests, each
    // answered on its own (memory_sub_partition::breakdown_request_to_sector_requests).
    if (auto v = m_values.find("gpu.l2.sectored"); v != m_values.end() && v->second.text == "true")
      put(x + "sector_replies", "true",
          "the sectored L2 answers each 32 B sector of a request with a packet of its own",
          nullptr);
    if (auto* o = get("-icnt_flit_size")) set(x + "flit_size", size_text(number(*o)), *o);
    if (auto* o = get("-gpgpu_n_cluster_ejection_buffer_size")) {
      set(x + "ejection_buffer", std::to_string(number(*o)), *o);
      set("gpu.smx.ni.response_buffer", std::to_string(number(*o)), *o);
    }
    if (auto* o = get("-gpgpu_memory_partition_indexing")) {
      const char* names[] = {"linear", "xor", "ipoly", nullptr, "random", nullptr};
      const std::uint64_t v = number(*o);
      if (v < 6 && names[v])
        set(x + "partition_indexing", names[v], *o);
      else
        unmappable(*o, o->value + (v == 3 ? ": PAE" : v == 5 ? ": custom" : ""));
    }
    // The local crossbar's own options (icnt_wrapper.cc): no effect under BookSim.
    const char* xbar_options[] = {"-icnt_in_buffer_limit", "-icnt_out_buffer_limit",
                                  "-icnt_subnets", "-icnt_arbiter_algo", "-icnt_grant_cycles"};
    if (!local_xbar) {
      for (const char* name : xbar_options)
        if (auto* o = get(name))
          consume(*o, k_icnt.path,
                  o->name + " " + o->value + ": no effect without -network_mode 2");
      return;
    }
    if (auto* o = get("-icnt_in_buffer_limit"))
      set(x + "input_buffer", std::to_string(number(*o)), *o,
          o->value + " (packets there, flits here)");
    if (auto* o = get("-icnt_out_buffer_limit"))
      set(x + "output_buffer", std::to_string(number(*o)), *o,
          o->value + " (packets there, flits here)");
    if (auto* o = get("-icnt_subnets")) {
      if (number(*o) == 2)
        consume(*o, k_icnt.path,
                o->name + " 2: requests and replies on their own subnets, as gputlm's");
      else
        unmappable(*o, o->value + ": gputlm's crossbar always has two subnets");
    }
    // xbar_router keeps one FIFO per input. Its "iSLIP" (1) is output-driven: each output
    // in turn takes the first input from its pointer whose head packet is for it, so an input
    // may feed several outputs a cycle (gputlm's round_robin); its round robin (0) moves at
    // most one packet per input a cycle (as gputlm's one-iteration islip does).
    put(x + "input_queueing", "fifo", "-network_mode 2: the local crossbar has one FIFO per input",
        mode);
    if (auto* o = get("-icnt_arbiter_algo")) {
      const std::uint64_t v = number(*o);
      if (v <= 1)
        set(x + "arbiter", v ? "round_robin" : "islip", *o,
            o->value + (v ? " (output-driven, several packets per input a cycle)"
                          : " (at most one packet per input a cycle)"));
      else
        unmappable(*o, o->value);
    }
    if (auto* o = get("-icnt_grant_cycles")) {
      // A grant held for n cycles has no gputlm counterpart; 1 is the one-cycle switch.
      if (number(*o) == 1)
        set(x + "latency", cyc(1), *o);
      else
        unmappable(*o, o->value + ": grants held for several cycles");
    }
  }

  // Options whose value is simply what gputlm always does.
  void map_fixed_behaviour() {
    struct fixed {
      const char* option;
      std::uint64_t value;
      const char* meaning;
      const char* block;
    };
    const fixed list[] = {
        {"-gpgpu_shmem_limited_broadcast", 0, "unlimited shared-memory broadcast", k_smx.path},
        {"-gpgpu_shmem_warp_parts", 1, "shared-memory conflicts over the whole warp", k_smx.path},
    };
    for (const fixed& f : list)
      if (auto* o = get(f.option)) {
        if (number(*o) == f.value)
          consume(*o, f.block, o->name + " " + o->value + ": " + f.meaning + ", as gputlm's");
        else
          unmappable(*o, o->value);
      }
  }

  // ---- The YAML text
  std::string key_line(int indent, const std::string& key, const yaml_value& v) const {
    std::string s = std::string(indent, ' ') + key + ": " + v.text;
    if (!v.comment.empty()) {
      s.resize(std::max<std::size_t>(s.size() + 2, 36), ' ');
      s += "# " + v.comment;
    }
    return s + "\n";
  }

  void emit_block(std::ostream& os, const block_layout& b, int indent) const {
    const std::string pad(indent, ' ');
    std::string path = b.path;
    os << pad.substr(2) << path.substr(path.rfind('.') + 1) << ":\n";
    os << pad << "type: " << b.type << "\n";
    if (b.clock) os << pad << "clock: " << b.clock << "\n";
    if (auto n = m_notes.find(path); n != m_notes.end())
      for (const std::string& t : n->second) os << pad << "# " << t << "\n";
    for (const char* key : b.keys)
      if (auto v = m_values.find(path + "." + key); v != m_values.end())
        os << key_line(indent, key, v->second);
  }

  std::string platform_name() const {
    std::filesystem::path p(m_config_name);
    std::string name =
        p.filename() == "gpgpusim.config" && p.has_parent_path() && p.parent_path().has_filename()
            ? p.parent_path().filename().string()
            : p.stem().string();
    return name.empty() ? "imported" : name;
  }

  std::string emit(const std::vector<std::string>& unmapped) const {
    std::ostringstream os;
    const std::string sources =
        m_config_name + (m_trace_name.empty() ? "" : " and " + m_trace_name);
    os << "# Imported by `gputlm import-config` from " << sources << ".\n"
       << "# Each value names the GPGPU-Sim / Accel-Sim option it came from; a derived value "
          "says how.\n"
       << "# Keys not written take gputlm's block defaults (gputlm elaborate --dump-config "
          "lists them all).\n"
       << "# No power: section: GPGPU-Sim's power model (AccelWattch) is not imported; see "
          "docs/power.md.\n";
    if (!unmapped.empty()) {
      os << "# Options with no gputlm equivalent:\n";
      for (const std::string& u : unmapped) os << "#   " << u << "\n";
    }
    bool header = false;
    for (const default_difference& d : k_default_differences) {
      if (m_opts.count(d.option)) continue;
      if (!header)
        os << "# Not set here; GPGPU-Sim's default differs from gputlm's (gputlm's is used):\n";
      header = true;
      os << "#   " << d.option << " " << d.gpgpusim_default << " (gputlm " << d.gputlm << ")\n";
    }
    if (!m_opts.count("-gpgpu_mem_addr_mapping") && !m_opts.count("-gpgpu_mem_address_mask"))
      os << (header ? "" : "# Not set here; GPGPU-Sim's default differs from gputlm's:\n")
         << "#   -gpgpu_mem_addr_mapping (none: the -gpgpu_mem_address_mask 0 preset) "
            "(gputlm gpu.dram.address_map: the GTX480 map)\n";

    os << "platform:\n"
       << "  name: " << quote_yaml_scalar(platform_name()) << "\n"
       << "  description: " << quote_yaml_scalar("imported from " + sources) << "\n\n";
    os << "clocks:\n";
    for (const char* c : {"core", "icnt", "l2", "dram"}) {
      os << "  " << c << ":\n";
      os << key_line(4, "frequency", m_values.at("clocks." + std::string(c) + ".frequency"));
    }
    os << "\ngpu:\n  type: gpu\n  clock: core\n\n";
    emit_block(os, k_kmu, 4);
    emit_block(os, k_kd, 4);
    emit_block(os, k_tbs, 4);
    os << "\n";
    emit_block(os, k_smx, 4);
    os << "\n";
    emit_block(os, k_l1, 6);
    os << "\n";
    emit_block(os, k_iu, 6);
    os << "\n    bind:\n      - ldst -> l1.core\n      - l1.icnt -> ni.in\n\n";
    emit_block(os, k_icnt, 4);
    os << "\n";
    emit_block(os, k_l2_iu, 4);
    os << "\n";
    emit_block(os, k_l2, 4);
    os << "\n";
    emit_block(os, k_dram, 4);
    const std::string s = std::to_string(m_subs);
    os << "\n  bind:\n"
       << "    - kmu.kd -> kd.kmu\n"
       << "    - smx_scheduler.kd -> kd.scheduler\n"
       << "    - kd.doorbell -> smx_scheduler.doorbell\n"
       << "    - smx_scheduler.smx[i] -> smx[*].tbcr\n"
       << "    - smx[*].launch -> kmu.smx[i]\n"
       << "    - smx[*].ni.out -> icnt.smx[i]\n"
       << "    - icnt.mem[i] -> l2_ni[*].in\n"
       << "    - l2_ni[*].out -> l2[i].icnt\n"
       << "    - l2[*].dram -> dram[i/" << s << "].l2[i%" << s << "]   # " << s
       << " sub-partitions per channel\n";
    return os.str();
  }

  std::string m_config_name, m_trace_name;
  std::map<std::string, option_entry> m_opts;
  std::vector<std::string> m_order;
  std::set<std::string> m_used;
  std::map<std::string, std::vector<std::string>> m_unmappable;
  std::map<std::string, yaml_value> m_values;
  std::vector<std::pair<std::string, std::string>> m_mapped_keys;
  std::map<std::string, std::vector<std::string>> m_notes;
  std::uint64_t m_sms = 0, m_channels = 0, m_subs = 1;
};

std::string read_text(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw input_error({path, 0, 0}, what, "no such file or directory");
  if (!std::filesystem::is_regular_file(path, ec))
    throw input_error({path, 0, 0}, what, "not a regular file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (!in && !in.eof()) throw input_error({path, 0, 0}, what, "cannot read file");
  return ss.str();
}

// The last occurrence of option `name` in `entries` (the one GPGPU-Sim uses), or nullptr.
const option_entry* last_of(const std::vector<option_entry>& entries, const std::string& name) {
  const option_entry* last = nullptr;
  for (const option_entry& e : entries)
    if (e.name == name) last = &e;
  return last;
}

// "gpu.smx[3].registers" -> "gpu.smx.registers": the key as mapped_keys names it.
std::string without_indices(const std::string& key) {
  std::string out;
  for (std::size_t i = 0; i < key.size(); ++i) {
    if (key[i] == '[') {
      const std::size_t close = key.find(']', i);
      if (close != std::string::npos) {
        i = close;
        continue;
      }
    }
    out += key[i];
  }
  return out;
}

// Line `n` (1-based) of `text`, or "".
std::string line_of(const std::string& text, std::uint64_t n) {
  std::istringstream in(text);
  std::string line;
  for (std::uint64_t i = 1; std::getline(in, line); ++i)
    if (i == n) return line;
  return "";
}

// An import that would not elaborate is refused before anything is written: the platform
// is elaborated from a scratch copy (this process's one elaboration) and a key it refuses
// is reported at the option of the inputs it came from, or at the config when it kept
// gputlm's default.
void check_elaborates(const imported_platform& p, const std::vector<option_entry>& entries,
                      const std::string& config) {
  namespace fs = std::filesystem;
  const fs::path scratch =
      fs::temp_directory_path() / ("gputlm-import-" + std::to_string(::getpid()) + ".yaml");
  struct remove_on_exit {
    fs::path path;
    ~remove_on_exit() {
      std::error_code ec;
      fs::remove(path, ec);
      unregister_partial(path.string());
    }
  } guard{scratch};
  register_partial(scratch.string());
  {
    std::ofstream out(scratch, std::ios::binary);
    out << p.yaml;
    if (!out.flush())
      throw input_error({scratch.string(), 0, 0}, "import-config",
                        "cannot write the scratch copy of the imported platform");
  }
  try {
    (void)platforms::platform::load(scratch.string(), {}, {});
  } catch (const input_error& e) {
    if (e.where().file != scratch.string()) throw;
    const std::string key = without_indices(e.key());
    std::string line = line_of(p.yaml, e.where().line);
    const std::size_t hash = line.find('#');
    const std::string comment = hash == std::string::npos ? "" : trim(line.substr(hash + 1));
    std::string value = trim(line.substr(0, hash));
    if (const std::size_t colon = value.find(':'); colon != std::string::npos)
      value = trim(value.substr(colon + 1));
    // The option the key was written from, else the first option its comment names.
    const option_entry* source = nullptr;
    for (const auto& [k, o] : p.mapped_keys)
      if (k == key) source = last_of(entries, o);
    for (std::size_t at = comment.find('-'); !source && at != std::string::npos;
         at = comment.find('-', at + 1)) {
      std::size_t end = at;
      while (end < comment.size() && !is_space(comment[end]) && comment[end] != ',') ++end;
      source = last_of(entries, comment.substr(at, end - at));
    }
    const std::string gives = key + (value.empty() ? "" : " = " + value);
    if (source)
      throw input_error(source->value_where, source->name,
                        "gives " + gives + ", which does not elaborate: " + e.message());
    throw input_error({config, 0, 0}, "import-config",
                      "the imported platform does not elaborate: " + gives + ": " + e.message());
  }
}

}  // namespace

imported_platform import_gpgpusim_config(const std::string& config_text,
                                         const std::string& config_name,
                                         const std::string& trace_config_text,
                                         const std::string& trace_config_name) {
  std::vector<option_entry> entries = parse_options(config_text, config_name);
  std::vector<option_entry> trace = parse_options(trace_config_text, trace_config_name);
  entries.insert(entries.end(), trace.begin(), trace.end());
  return importer(entries, config_name, trace_config_name).run();
}

int import_config_main(const std::vector<std::string>& args) {
  po::options_description opts("gputlm import-config CONFIG [TRACE_CONFIG] -o FILE");
  opts.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                                 "GPGPU-Sim configuration (gpgpusim.config)")(
      "trace-config", po::value<std::string>(), "Accel-Sim trace.config (optional)")(
      "output,o", po::value<std::string>(), "platform YAML to write");
  po::positional_options_description pos;
  pos.add("config", 1).add("trace-config", 1);
  auto vm = parse_command_line(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return exit_ok;
  }
  if (!vm.count("config")) throw input_error(command_line, "CONFIG", "no GPGPU-Sim config given");
  if (!vm.count("output"))
    throw input_error(command_line, "--output", "no output file given (-o FILE)");
  const std::string config = vm["config"].as<std::string>();
  const std::string output = vm["output"].as<std::string>();
  const std::string trace = vm.count("trace-config") ? vm["trace-config"].as<std::string>() : "";
  // A file in a writable folder, and not one of the configs read (nor their folder).
  std::vector<std::string> inputs{config};
  if (!trace.empty()) inputs.push_back(trace);
  check_outputs({{"--output", output}}, inputs);
  const std::string config_text = read_text(config, "CONFIG");
  const std::string trace_text = trace.empty() ? "" : read_text(trace, "TRACE_CONFIG");

  // Accel-Sim's trace.config given alone (or first) would import as GPGPU-Sim's default
  // 30-SM chip: refused, naming what it holds.
  std::vector<option_entry> entries = parse_options(config_text, config);
  const bool trace_only =
      !entries.empty() && std::all_of(entries.begin(), entries.end(), [](const option_entry& o) {
        return o.name.rfind("-trace_", 0) == 0 || o.name.rfind("-specialized_unit_", 0) == 0;
      });
  if (trace_only)
    throw input_error(entries.front().where, "CONFIG",
                      "holds only Accel-Sim trace.config options (" + entries.front().name +
                          ", ...): give the GPGPU-Sim configuration first, "
                          "import-config gpgpusim.config trace.config -o FILE");
  imported_platform p = import_gpgpusim_config(config_text, config, trace_text, trace);
  for (option_entry& e : parse_options(trace_text, trace)) entries.push_back(std::move(e));
  check_elaborates(p, entries, config);
  write_file_atomically(output, p.yaml);
  // One warning line per option without an equivalent, at its place in the inputs (where
  // the last occurrence, the one GPGPU-Sim uses, is), so that none hides in a long list.
  for (const std::string& u : p.unmapped) {
    const std::string name = u.substr(0, u.find(' '));
    const std::string detail = u.size() > name.size() ? u.substr(name.size() + 1) : "";
    const option_entry* e = last_of(entries, name);
    const source_location at = e ? e->where : source_location{config, 0, 0};
    std::cerr << "warning: " << at.to_string() << ": " << name << ": no gputlm equivalent"
              << (detail.empty() ? "" : " " + detail) << "\n";
  }
  std::cout << "import-config: wrote " << output << " (" << p.mapped_options.size()
            << " options mapped)\n";
  return exit_ok;
}

}  // namespace gputlm::cli
