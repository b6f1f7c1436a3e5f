// `gputlm import-config` without files or SystemC: GPGPU-Sim option text written here ->
// platform YAML. The TITAN V input holds the SM7_TITANV option lines that yaml/volta.yaml
// cites in its comments (GS4 gpgpusim.config, AS trace.config); every mapped key must carry
// volta.yaml's value and name its option in a trailing comment. Also: unknown and
// unmappable options are listed, comments and blank lines are ignored, and bad values are
// input errors naming file, line and option.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "models/base/input_error.h"
#include "sc_main/import_config.h"
#include "tests/common/run_command.h"

namespace test_import_config {

using gputlm::input_error;
using gputlm::cli::import_gpgpusim_config;
using gputlm::cli::imported_platform;

namespace {

// The TITAN V (GS4 SM7_TITANV) options behind yaml/volta.yaml's values, with some options
// gputlm has no use for mixed in, as in the real file.
const std::string k_titanv_config =
    gputlm::testing::slurp(std::string(GPUTLM_SOURCE_DIR) + "/tests/data/titanv.gpgpusim.config");

const std::string k_titanv_trace =
    gputlm::testing::slurp(std::string(GPUTLM_SOURCE_DIR) + "/tests/data/titanv.trace.config");

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

// The value text and the trailing comment of every `key: value  # comment` line, by key
// path (nesting from the indentation; list items and comment lines skipped).
std::map<std::string, std::pair<std::string, std::string>> index_lines(const std::string& yaml) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  std::vector<std::pair<std::size_t, std::string>> parents;  // (indent, key)
  std::size_t pos = 0;
  while (pos < yaml.size()) {
    std::size_t eol = yaml.find('\n', pos);
    if (eol == std::string::npos) eol = yaml.size();
    const std::string line = yaml.substr(pos, eol - pos);
    pos = eol + 1;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#' || t[0] == '-') continue;
    const std::size_t indent = line.find_first_not_of(' ');
    while (!parents.empty() && parents.back().first >= indent) parents.pop_back();
    const std::size_t colon = t.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = t.substr(0, colon);
    std::string rest = t.substr(colon + 1), comment;
    bool quoted = false;
    for (std::size_t i = 0; i < rest.size(); ++i) {
      if (rest[i] == '"') quoted = !quoted;
      if (!quoted && rest[i] == '#' && (i == 0 || rest[i - 1] == ' ')) {
        comment = trim(rest.substr(i + 1));
        rest = rest.substr(0, i);
        break;
      }
    }
    rest = trim(rest);
    std::string path;
    for (const auto& p : parents) path += p.second + ".";
    if (rest.empty())
      parents.emplace_back(indent, key);
    else
      out[path + key] = {rest, comment};
  }
  return out;
}

// The node at a dotted key path, e.g. gpu.smx.l1.sets.
YAML::Node at(const YAML::Node& root, const std::string& path) {
  YAML::Node n;
  n.reset(root);  // (reset, not =, which would overwrite the node n refers to)
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = path.find('.', start);
    const std::string key =
        path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const YAML::Node& current = n;
    if (!current.IsMap() || !current[key].IsDefined()) return YAML::Node(YAML::NodeType::Undefined);
    n.reset(current[key]);
    if (dot == std::string::npos) return n;
    start = dot + 1;
  }
}

// A scalar as its text; a sequence as "[a, b, c]".
std::string text_of(const YAML::Node& n) {
  if (!n.IsDefined()) return "<absent>";
  if (n.IsSequence()) {
    std::string s = "[";
    for (std::size_t i = 0; i < n.size(); ++i) s += (i ? ", " : "") + n[i].as<std::string>();
    return s + "]";
  }
  return n.as<std::string>();
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

imported_platform import_text(const std::string& config, const std::string& trace = "") {
  return import_gpgpusim_config(config, "test.config", trace, trace.empty() ? "" : "trace.config");
}

// The input_error of importing `config`, or a failure when there is none.
input_error import_error(const std::string& config) {
  try {
    import_gpgpusim_config(config, "bad.config", "", "");
  } catch (const input_error& e) {
    return e;
  }
  ADD_FAILURE() << "no input_error for:\n" << config;
  return input_error({}, "", "");
}

struct expected_key {
  const char* path;
  const char* value;
  const char* option;
};

// yaml/volta.yaml's value of every key the TITAN V options map to.
const expected_key k_volta[] = {
    {"clocks.core.frequency", "1200MHz", "-gpgpu_clock_domains"},
    {"clocks.icnt.frequency", "1200MHz", "-gpgpu_clock_domains"},
    {"clocks.l2.frequency", "1200MHz", "-gpgpu_clock_domains"},
    {"clocks.dram.frequency", "850MHz", "-gpgpu_clock_domains"},
    {"gpu.kd.entries", "128", "-gpgpu_max_concurrent_kernel"},
    {"gpu.smx.count", "80", "-gpgpu_n_clusters"},
    {"gpu.smx.warp_size", "32", "-gpgpu_shader_core_pipeline"},
    {"gpu.smx.max_threads", "2048", "-gpgpu_shader_core_pipeline"},
    {"gpu.smx.max_tbs", "32", "-gpgpu_shader_cta"},
    {"gpu.smx.registers", "65536", "-gpgpu_shader_registers"},
    {"gpu.smx.shared_memory", "96KiB", "-gpgpu_shmem_size"},
    {"gpu.smx.shared_memory_banks", "32", "-gpgpu_shmem_num_banks"},
    {"gpu.smx.shared_memory_latency", "20cycles", "-gpgpu_smem_latency"},
    {"gpu.smx.warp_schedulers", "4", "-gpgpu_num_sched_per_core"},
    {"gpu.smx.scheduler_policy", "lrr", "-gpgpu_scheduler"},
    {"gpu.smx.max_issue_per_warp", "1", "-gpgpu_max_insn_issue_per_warp"},
    {"gpu.smx.dual_issue_different_units", "true", "-gpgpu_dual_issue_diff_exec_units"},
    {"gpu.smx.sub_core_model", "true", "-gpgpu_sub_core_model"},
    {"gpu.smx.fetch_warps", "4", "-gpgpu_inst_fetch_throughput"},
    {"gpu.smx.register_banks", "8", "-gpgpu_num_reg_banks"},
    {"gpu.smx.register_port_throughput", "2", "-gpgpu_reg_file_port_throughput"},
    {"gpu.smx.collectors_sp", "0", "-gpgpu_enable_specialized_operand_collector"},
    {"gpu.smx.collectors_sfu", "0", "-gpgpu_enable_specialized_operand_collector"},
    {"gpu.smx.collectors_mem", "0", "-gpgpu_enable_specialized_operand_collector"},
    {"gpu.smx.collectors_generic", "8", "-gpgpu_operand_collector_num_units_gen"},
    {"gpu.smx.sp_units", "4", "-gpgpu_num_sp_units"},
    {"gpu.smx.sp_latency", "2cycles", "-trace_opcode_latency_initiation_sp"},
    {"gpu.smx.sp_initiation", "2cycles", "-trace_opcode_latency_initiation_sp"},
    {"gpu.smx.sfu_units", "4", "-gpgpu_num_sfu_units"},
    {"gpu.smx.sfu_latency", "20cycles", "-trace_opcode_latency_initiation_sfu"},
    {"gpu.smx.sfu_initiation", "8cycles", "-trace_opcode_latency_initiation_sfu"},
    {"gpu.smx.dp_units", "4", "-gpgpu_num_dp_units"},
    {"gpu.smx.dp_latency", "8cycles", "-trace_opcode_latency_initiation_dp"},
    {"gpu.smx.dp_initiation", "4cycles", "-trace_opcode_latency_initiation_dp"},
    {"gpu.smx.int_units", "4", "-gpgpu_num_int_units"},
    {"gpu.smx.int_latency", "2cycles", "-trace_opcode_latency_initiation_int"},
    {"gpu.smx.int_initiation", "2cycles", "-trace_opcode_latency_initiation_int"},
    {"gpu.smx.tensor_units", "4", "-gpgpu_num_tensor_core_units"},
    {"gpu.smx.tensor_latency", "8cycles", "-trace_opcode_latency_initiation_tensor"},
    {"gpu.smx.tensor_initiation", "4cycles", "-trace_opcode_latency_initiation_tensor"},
    {"gpu.smx.branch_units", "4", "-specialized_unit_1"},
    {"gpu.smx.branch_latency", "4cycles", "-trace_opcode_latency_initiation_spec_op_1"},
    {"gpu.smx.branch_initiation", "4cycles", "-trace_opcode_latency_initiation_spec_op_1"},
    {"gpu.smx.coalescing_arch", "60", "-gpgpu_coalesce_arch"},
    {"gpu.smx.l1.size", "32KiB", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.sets", "4", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.ways", "64", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.line_size", "128B", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.sectored", "true", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.replacement", "lru", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.write_policy", "write_through", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.allocate", "on_miss", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.write_allocate", "lazy_fetch_on_read", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.set_index", "linear", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.mshr_entries", "512", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.mshr_merge", "8", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.miss_queue", "16", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.data_port_width", "32B", "-gpgpu_cache:dl1"},
    {"gpu.smx.l1.banks", "4", "-gpgpu_l1_banks"},
    {"gpu.smx.l1.hit_latency", "20cycles", "-gpgpu_l1_latency"},
    {"gpu.smx.l1.bypass_global_loads", "false", "-gpgpu_gmem_skip_L1D"},
    {"gpu.smx.l1.flush_at_kernel_end", "true", "-gpgpu_flush_l1_cache"},
    {"gpu.smx.l1.dirty_line_cap", "25", "-gpgpu_l1_cache_write_ratio"},
    {"gpu.smx.ni.response_buffer", "32", "-gpgpu_n_cluster_ejection_buffer_size"},
    {"gpu.icnt.flit_size", "40B", "-icnt_flit_size"},
    {"gpu.icnt.input_buffer", "512", "-icnt_in_buffer_limit"},
    {"gpu.icnt.output_buffer", "512", "-icnt_out_buffer_limit"},
    {"gpu.icnt.ejection_buffer", "32", "-gpgpu_n_cluster_ejection_buffer_size"},
    {"gpu.icnt.arbiter", "round_robin", "-icnt_arbiter_algo"},
    {"gpu.icnt.input_queueing", "fifo", "-network_mode"},
    {"gpu.icnt.smx_per_port", "2", "-gpgpu_n_cores_per_cluster"},
    {"gpu.icnt.latency", "1cycles", "-icnt_grant_cycles"},
    {"gpu.icnt.partition_indexing", "ipoly", "-gpgpu_memory_partition_indexing"},
    {"gpu.icnt.mem_channels", "24", "-gpgpu_n_mem"},
    {"gpu.icnt.address_map",
     "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS",
     "-gpgpu_mem_addr_mapping"},
    {"gpu.l2_ni.count", "48", "-gpgpu_n_mem"},
    {"gpu.l2.count", "48", "-gpgpu_n_mem"},
    {"gpu.l2.size", "96KiB", "-gpgpu_cache:dl2"},
    {"gpu.l2.sets", "32", "-gpgpu_cache:dl2"},
    {"gpu.l2.ways", "24", "-gpgpu_cache:dl2"},
    {"gpu.l2.line_size", "128B", "-gpgpu_cache:dl2"},
    {"gpu.l2.sectored", "true", "-gpgpu_cache:dl2"},
    {"gpu.l2.replacement", "lru", "-gpgpu_cache:dl2"},
    {"gpu.l2.write_policy", "write_back", "-gpgpu_cache:dl2"},
    {"gpu.l2.allocate", "on_miss", "-gpgpu_cache:dl2"},
    {"gpu.l2.write_allocate", "lazy_fetch_on_read", "-gpgpu_cache:dl2"},
    {"gpu.l2.set_index", "ipoly", "-gpgpu_cache:dl2"},
    {"gpu.l2.mshr_entries", "192", "-gpgpu_cache:dl2"},
    {"gpu.l2.mshr_merge", "4", "-gpgpu_cache:dl2"},
    {"gpu.l2.data_port_width", "32B", "-gpgpu_cache:dl2"},
    {"gpu.l2.rop_latency", "160cycles", "-gpgpu_l2_rop_latency"},
    {"gpu.l2.dram_latency", "100cycles", "-dram_latency"},
    {"gpu.l2.icnt_to_l2_queue", "64", "-gpgpu_dram_partition_queues"},
    {"gpu.l2.l2_to_dram_queue", "64", "-gpgpu_dram_partition_queues"},
    {"gpu.l2.l2_to_icnt_queue", "64", "-gpgpu_dram_partition_queues"},
    {"gpu.dram.count", "24", "-gpgpu_n_mem"},
    {"gpu.dram.channels", "24", "-gpgpu_n_mem"},
    {"gpu.dram.chips", "1", "-gpgpu_n_mem_per_ctrlr"},
    {"gpu.dram.bus_width", "16B", "-gpgpu_dram_buswidth"},
    {"gpu.dram.burst_length", "2", "-gpgpu_dram_burst_length"},
    {"gpu.dram.data_rate", "2", "-dram_data_command_freq_ratio"},
    {"gpu.dram.banks", "16", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.bank_groups", "4", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tCCD", "1cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tRRD", "3cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tRCD", "12cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tRAS", "28cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tRP", "12cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tRC", "40cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.CL", "12cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.WL", "2cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tCDLR", "3cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tWR", "10cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tCCDL", "2cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.tRTPL", "3cycles", "-gpgpu_dram_timing_opt"},
    {"gpu.dram.scheduler", "fr_fcfs", "-gpgpu_dram_scheduler"},
    {"gpu.dram.queue_depth", "64", "-gpgpu_frfcfs_dram_sched_queue_size"},
    {"gpu.dram.return_queue", "192", "-gpgpu_dram_return_queue_size"},
    {"gpu.dram.dual_bus", "true", "-dram_dual_bus_interface"},
    {"gpu.dram.bank_indexing", "xor", "-dram_bnk_indexing_policy"},
    {"gpu.dram.bank_group_indexing", "low_bits", "-dram_bnkgrp_indexing_policy"},
    {"gpu.dram.address_map",
     "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS",
     "-gpgpu_mem_addr_mapping"},
};

}  // namespace

TEST(import_config, titanv_keys_have_volta_values_and_name_their_option) {
  const imported_platform p = import_text(k_titanv_config, k_titanv_trace);
  YAML::Node root;
  ASSERT_NO_THROW(root = YAML::Load(p.yaml)) << p.yaml;
  const auto lines = index_lines(p.yaml);
  for (const expected_key& k : k_volta) {
    SCOPED_TRACE(k.path);
    EXPECT_EQ(text_of(at(root, k.path)), k.value);
    auto line = lines.find(k.path);
    ASSERT_NE(line, lines.end());
    EXPECT_NE(line->second.second.find(k.option), std::string::npos) << line->second.second;
    auto mapped = std::find_if(p.mapped_keys.begin(), p.mapped_keys.end(),
                               [&](const auto& m) { return m.first == k.path; });
    ASSERT_NE(mapped, p.mapped_keys.end());
  }
  // Every key reported as mapped is written with its option named in the comment.
  for (const auto& [path, option] : p.mapped_keys) {
    SCOPED_TRACE(path);
    auto line = lines.find(path);
    ASSERT_NE(line, lines.end());
    EXPECT_TRUE(at(root, path).IsDefined());
    EXPECT_NE(line->second.second.find(option), std::string::npos) << line->second.second;
  }
  // The comment of the brief's example, word for word.
  EXPECT_EQ(lines.at("gpu.smx.max_threads").second, "-gpgpu_shader_core_pipeline 2048:32");
}

TEST(import_config, titanv_structure_matches_volta) {
  const imported_platform p = import_text(k_titanv_config, k_titanv_trace);
  const YAML::Node root = YAML::Load(p.yaml);
  for (const char* top : {"platform", "clocks", "gpu"}) EXPECT_TRUE(root[top].IsDefined()) << top;
  EXPECT_FALSE(root["power"].IsDefined());
  EXPECT_NE(p.yaml.find("No power: section"), std::string::npos);
  const std::pair<const char*, const char*> types[] = {{"gpu", "gpu"},
                                                       {"gpu.kmu", "kmu"},
                                                       {"gpu.kd", "kernel_distributor"},
                                                       {"gpu.smx_scheduler", "smx_scheduler"},
                                                       {"gpu.smx", "smx"},
                                                       {"gpu.smx.l1", "l1_cache"},
                                                       {"gpu.smx.ni", "network_interface"},
                                                       {"gpu.icnt", "crossbar"},
                                                       {"gpu.l2_ni", "network_interface"},
                                                       {"gpu.l2", "l2_cache"},
                                                       {"gpu.dram", "dram_channel"}};
  for (const auto& [path, type] : types)
    EXPECT_EQ(text_of(at(root, std::string(path) + ".type")), type) << path;
  EXPECT_EQ(text_of(at(root, "gpu.clock")), "core");
  EXPECT_EQ(text_of(at(root, "gpu.icnt.clock")), "icnt");
  EXPECT_EQ(text_of(at(root, "gpu.l2.clock")), "l2");
  EXPECT_EQ(text_of(at(root, "gpu.dram.clock")), "dram");
  EXPECT_EQ(text_of(at(root, "gpu.smx.bind")), "[ldst -> l1.core, l1.icnt -> ni.in]");
  EXPECT_EQ(text_of(at(root, "gpu.bind")),
            "[kmu.kd -> kd.kmu, smx_scheduler.kd -> kd.scheduler, kd.doorbell -> "
            "smx_scheduler.doorbell, smx_scheduler.smx[i] -> smx[*].tbcr, smx[*].launch -> "
            "kmu.smx[i], smx[*].ni.out -> "
            "icnt.smx[i], icnt.mem[i] -> l2_ni[*].in, l2_ni[*].out -> l2[i].icnt, l2[*].dram -> "
            "dram[i/2].l2[i%2]]");
  // Keys the config does not give keep gputlm's defaults: not written.
  for (const char* path : {"gpu.kmu.hw_queues", "gpu.smx.ibuffer_entries", "gpu.icnt.vcs",
                           "gpu.dram.kind", "gpu.l2.warm_from_memcpy", "gpu.l2_ni.request_buffer"})
    EXPECT_FALSE(at(root, path).IsDefined()) << path;
}

TEST(import_config, options_without_equivalent_are_listed_in_file_order_once) {
  const imported_platform p = import_text(k_titanv_config, k_titanv_trace);
  // In the order of the file (lines 30, 46, 49, 56, 113-115 of the text above).
  const std::vector<std::string> expected{
      "-gpgpu_ptx_sim_mode",
      "-gpgpu_occupancy_sm_number",
      "-gpgpu_pipeline_widths (pipeline registers are left unbounded: set smx.id_oc_widths and "
      "smx.oc_ex_widths)",
      "-ptx_opcode_latency_int",
      "-dram_seperate_write_queue_enable (1: the write queue and its drain are not modelled)",
      "-dram_write_queue_size (the write queue is not modelled)",
      "-visualizer_enabled"};
  EXPECT_EQ(p.unmapped, expected);
  // Mapped options are counted once, whichever file and however many keys.
  EXPECT_TRUE(contains(p.mapped_options, "-gpgpu_cache:dl1"));
  EXPECT_TRUE(contains(p.mapped_options, "-trace_opcode_latency_initiation_sfu"));
  for (const char* o :  // the unified L1's carve-out (l1.unified_size, shared_options)
       {"-gpgpu_adaptive_cache_config", "-gpgpu_shmem_option", "-gpgpu_unified_l1d_size"})
    EXPECT_TRUE(contains(p.mapped_options, o)) << o;
  EXPECT_FALSE(contains(p.mapped_options, "-visualizer_enabled"));
  EXPECT_EQ(std::count(p.mapped_options.begin(), p.mapped_options.end(), "-gpgpu_cache:dl1"), 1);

  const imported_platform q = import_text(
      "-gpgpu_foo 1\n-gpgpu_shader_cta 8\n-gpgpu_bar x,y\n-gpgpu_foo 2\n", "-trace_baz 4,1\n");
  EXPECT_EQ(q.unmapped, (std::vector<std::string>{"-gpgpu_foo", "-gpgpu_bar", "-trace_baz"}));
  EXPECT_EQ(q.mapped_options, std::vector<std::string>{"-gpgpu_shader_cta"});
}

TEST(import_config, unmappable_codes_are_listed_with_their_value_and_keep_defaults) {
  const imported_platform p = import_text(
      "-gpgpu_scheduler two_level_active:6:0:1\n"
      "-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:C,F:64:8,8:2\n"
      "-gpgpu_memory_partition_indexing 3\n"
      "-icnt_arbiter_algo 1\n");
  const YAML::Node root = YAML::Load(p.yaml);
  EXPECT_TRUE(contains(p.unmapped, "-gpgpu_scheduler (two_level_active:6:0:1)"));
  EXPECT_TRUE(contains(p.unmapped, "-gpgpu_cache:dl1 (set index C; MSHR type F)"));
  EXPECT_TRUE(contains(p.unmapped, "-gpgpu_memory_partition_indexing (3: PAE)"));
  EXPECT_FALSE(at(root, "gpu.smx.scheduler_policy").IsDefined());
  EXPECT_FALSE(at(root, "gpu.smx.l1.set_index").IsDefined());
  EXPECT_FALSE(at(root, "gpu.smx.l1.mshr_type").IsDefined());
  EXPECT_EQ(text_of(at(root, "gpu.smx.l1.sets")), "32");  // the rest of the string maps
  EXPECT_TRUE(contains(p.mapped_options, "-gpgpu_cache:dl1"));
  // The local crossbar's options do nothing under BookSim (GPGPU-Sim's default network).
  EXPECT_FALSE(at(root, "gpu.icnt.arbiter").IsDefined());
  EXPECT_TRUE(contains(p.mapped_options, "-icnt_arbiter_algo"));
}

TEST(import_config, comments_blank_lines_and_quoting_follow_gpgpusim) {
  const imported_platform p = import_text(
      "# -gpgpu_shader_cta 99\n"
      "\n"
      "   \t\n"
      "-gpgpu_shader_cta 16   # was 32 # twice\r\n"
      "-gpgpu_shader_registers\t32768\r\n"
      "  -gpgpu_num_sched_per_core 2 -gpgpu_scheduler gto\n"
      "-gpgpu_dram_timing_opt \"nbk=8:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
      "     CL=12:WL=4:CDLR=5:WR=12\"   # no bank groups\n"
      "-gpgpu_shader_cta 24\n");
  const YAML::Node root = YAML::Load(p.yaml);
  EXPECT_TRUE(p.unmapped.empty()) << p.unmapped.front();
  EXPECT_EQ(text_of(at(root, "gpu.smx.max_tbs")), "24");  // the last occurrence wins
  EXPECT_EQ(text_of(at(root, "gpu.smx.registers")), "32768");
  EXPECT_EQ(text_of(at(root, "gpu.smx.warp_schedulers")), "2");
  EXPECT_EQ(text_of(at(root, "gpu.smx.scheduler_policy")), "gto");
  EXPECT_EQ(text_of(at(root, "gpu.dram.banks")), "8");
  EXPECT_EQ(text_of(at(root, "gpu.dram.CL")), "12cycles");
  EXPECT_EQ(text_of(at(root, "gpu.dram.tWR")), "12cycles");
  EXPECT_FALSE(at(root, "gpu.dram.bank_groups").IsDefined());  // GPGPU-Sim: 1, as gputlm
}

TEST(import_config, trace_config_overrides_and_branches_default_to_int) {
  const imported_platform p = import_text(
      "-trace_opcode_latency_initiation_int 4,1\n-gpgpu_n_mem "
      "6\n-gpgpu_n_sub_partition_per_mchannel 1\n",
      "-trace_opcode_latency_initiation_int 6,2\n");
  const YAML::Node root = YAML::Load(p.yaml);
  EXPECT_EQ(text_of(at(root, "gpu.smx.int_latency")), "6cycles");
  EXPECT_EQ(text_of(at(root, "gpu.smx.int_initiation")), "2cycles");
  // Without a BRA unit Accel-Sim runs branches at the int values.
  EXPECT_EQ(text_of(at(root, "gpu.smx.branch_latency")), "6cycles");
  EXPECT_EQ(text_of(at(root, "gpu.smx.branch_initiation")), "2cycles");
  // One sub-partition per channel: one L2 bank per DRAM channel.
  EXPECT_EQ(text_of(at(root, "gpu.l2.count")), "6");
  const std::string bind = text_of(at(root, "gpu.bind"));
  EXPECT_NE(bind.find("l2[*].dram -> dram[i/1].l2[i%1]"), std::string::npos) << bind;
}

TEST(import_config, legacy_cache_strings_and_presets) {
  const imported_platform p = import_text(
      "-gpgpu_cache:dl1 32:128:4,L:L:m:N,A:32:8,8\n"
      "-gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4,32\n"
      "-gpgpu_pipeline_widths 2,1,1,2,1,1,2\n"
      "-gpgpu_mem_address_mask 1\n");
  const YAML::Node root = YAML::Load(p.yaml);
  EXPECT_EQ(text_of(at(root, "gpu.smx.l1.sectored")), "false");        // no type letter: N
  EXPECT_EQ(text_of(at(root, "gpu.smx.l1.set_index")), "linear");      // no index letter: L
  EXPECT_EQ(text_of(at(root, "gpu.smx.l1.data_port_width")), "128B");  // no port: the line
  // GPGPU-Sim reads the port only after ':<fifo>': here it is the line size.
  EXPECT_EQ(text_of(at(root, "gpu.l2.data_port_width")), "128B");
  // Pipeline-register widths are not modelled: listed, no key.
  EXPECT_FALSE(at(root, "gpu.smx.pipeline_widths").IsDefined());
  EXPECT_TRUE(contains(p.unmapped,
                       "-gpgpu_pipeline_widths (pipeline registers are left unbounded: set "
                       "smx.id_oc_widths and smx.oc_ex_widths)"));
  // Preset 1: channel bits at 13, banks at 11-12, rows 13-26, columns 0-10.
  EXPECT_EQ(text_of(at(root, "gpu.dram.address_map")),
            "dramid@13;00000000.00000000.00000000.00000000.00000RRR.RRRRRRRR.RRRBBCCC.CCCCCCCC");
  EXPECT_EQ(p.unmapped.size(), 1u);  // the pipeline widths only
}

// A sectored L2 answers each sector of a multi-sector request on its own (GPGPU-Sim's
// memory_sub_partition::breakdown_request_to_sector_requests): the crossbar's sector_replies
// follows the L2's type letter, and is left at its default (off) for a line L2.
TEST(import_config, sector_replies_follow_the_l2s_sectoring) {
  const YAML::Node sectored =
      YAML::Load(import_text("-gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32\n").yaml);
  EXPECT_EQ(text_of(at(sectored, "gpu.icnt.sector_replies")), "true");
  const YAML::Node line =
      YAML::Load(import_text("-gpgpu_cache:dl2 N:64:128:8,L:B:m:L:L,A:256:4,4:0,32\n").yaml);
  EXPECT_EQ(text_of(at(line, "gpu.l2.sectored")), "false");
  EXPECT_FALSE(at(line, "gpu.icnt.sector_replies").IsDefined());
}

TEST(import_config, the_instruction_cache_is_modelled_unless_gpgpusim_makes_it_perfect) {
  // GPGPU-Sim's GTX480: no perfect flag (its default 0), a 3.x string without a type letter.
  const YAML::Node fermi =
      YAML::Load(import_text("-gpgpu_cache:il1 4:128:4,L:R:f:N,A:2:32,4\n").yaml);
  EXPECT_EQ(text_of(at(fermi, "gpu.smx.icache_perfect")), "false");
  EXPECT_EQ(text_of(at(fermi, "gpu.smx.icache_sets")), "4");
  EXPECT_EQ(text_of(at(fermi, "gpu.smx.icache_ways")), "4");
  EXPECT_EQ(text_of(at(fermi, "gpu.smx.icache_mshr_entries")), "2");
  EXPECT_EQ(text_of(at(fermi, "gpu.smx.icache_mshr_merge")), "32");
  // The TITAN V's: perfect, its geometry kept for a run that turns the flag off.
  const YAML::Node perfect = YAML::Load(
      import_text(
          "-gpgpu_perfect_inst_const_cache 1\n-gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4\n")
          .yaml);
  EXPECT_EQ(text_of(at(perfect, "gpu.smx.icache_perfect")), "true");
  EXPECT_EQ(text_of(at(perfect, "gpu.smx.icache_sets")), "64");
  EXPECT_EQ(text_of(at(perfect, "gpu.smx.icache_ways")), "16");
  EXPECT_EQ(text_of(at(perfect, "gpu.smx.icache_line_size")), "128B");
  EXPECT_EQ(text_of(at(perfect, "gpu.smx.icache_mshr_merge")), "48");
  for (const char* bad : {"-gpgpu_cache:il1 N:4:96:4,L:R:f:N:L,S:2:32,4\n",   // 96 B lines
                          "-gpgpu_cache:il1 N:0:128:4,L:R:f:N:L,S:2:32,4\n",  // no sets
                          "-gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:0:32,4\n",  // no MSHR entry
                          "-gpgpu_cache:il1 N:4:128:4,L:R:f:N:L\n"}) {        // no MSHR group
    const input_error b = import_error(bad);
    EXPECT_EQ(b.key(), "-gpgpu_cache:il1") << bad;
    EXPECT_EQ(b.where().line, 1u) << bad;
  }
}

TEST(import_config, malformed_cache_string_names_file_line_and_option) {
  const std::string config =
      "-gpgpu_n_clusters 2\n"
      "# the L1\n"
      "\n"
      "-gpgpu_cache:dl1 S:4:128,L:T:m:L:L,A:512:8,16:0,32\n";
  const input_error e = import_error(config);
  EXPECT_EQ(e.where().file, "bad.config");
  EXPECT_EQ(e.where().line, 4u);
  EXPECT_EQ(e.key(), "-gpgpu_cache:dl1");
  const std::string what = e.what();
  EXPECT_EQ(what.rfind("bad.config:4:", 0), 0u) << what;
  EXPECT_NE(what.find("-gpgpu_cache:dl1"), std::string::npos) << what;

  for (const char* bad :
       {"-gpgpu_cache:dl1 S:4:128:64,L:T:m:L,A:512:8,16:0,32\n",    // 4 letters after S
        "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512\n",            // MSHR group short
        "-gpgpu_cache:dl1 S:x:128:64,L:T:m:L:L,A:512:8,16:0,32\n",  // sets not a number
        "-gpgpu_cache:dl1 Q:4:128:64,L:T:m:L:L,A:512:8,16:0,32\n",  // no type Q
        "-gpgpu_cache:dl1 S:4:128:64\n"}) {                         // one group
    const input_error b = import_error(bad);
    EXPECT_EQ(b.key(), "-gpgpu_cache:dl1") << bad;
    EXPECT_EQ(b.where().line, 1u) << bad;
  }
}

TEST(import_config, bad_values_name_file_line_and_option) {
  {
    const input_error e = import_error("-gpgpu_n_mem 2\n-gpgpu_shader_cta\n-gpgpu_n_clusters 4\n");
    EXPECT_EQ(e.where().line, 2u);
    EXPECT_EQ(e.key(), "-gpgpu_shader_cta");
    EXPECT_NE(std::string(e.what()).find("without a value"), std::string::npos) << e.what();
  }
  {
    const input_error e = import_error("-gpgpu_n_mem 2\n-gpgpu_n_mem\n");  // at the end
    EXPECT_EQ(e.where().line, 2u);
    EXPECT_EQ(e.key(), "-gpgpu_n_mem");
  }
  {
    const input_error e = import_error("\n-gpgpu_shader_cta thirty\n");
    EXPECT_EQ(e.where().line, 2u);
    EXPECT_EQ(e.where().column, 19u);
    EXPECT_EQ(e.key(), "-gpgpu_shader_cta");
  }
  const std::pair<const char*, const char*> bad[] = {
      {"-gpgpu_clock_domains 1200:1200:850\n", "-gpgpu_clock_domains"},
      {"-gpgpu_clock_domains 1200:fast:1200:850\n", "-gpgpu_clock_domains"},
      {"-gpgpu_shader_core_pipeline 2048\n", "-gpgpu_shader_core_pipeline"},
      {"-gpgpu_dram_timing_opt nbk=16:CCD=1:XYZ=3\n", "-gpgpu_dram_timing_opt"},
      {"-gpgpu_dram_partition_queues 64:64:64\n", "-gpgpu_dram_partition_queues"},
      {"-gpgpu_mem_addr_mapping dramid@8;0000RRRR\n", "-gpgpu_mem_addr_mapping"},
      {"-trace_opcode_latency_initiation_sp 4\n", "-trace_opcode_latency_initiation_sp"},
      {"-specialized_unit_1 1,4,4,4,BRA\n", "-specialized_unit_1"},
      {"-gpgpu_dram_timing_opt \"nbk=16:CCD=1\n", "-gpgpu_dram_timing_opt"},  // no closing quote
  };
  for (const auto& [text, option] : bad) {
    const input_error e = import_error(text);
    EXPECT_EQ(e.key(), option) << text;
    EXPECT_EQ(e.where().file, "bad.config") << text;
    EXPECT_EQ(e.where().line, 1u) << text;
  }
  // A word where an option is expected.
  const input_error e = import_error("-gpgpu_n_mem 2 3\n");
  EXPECT_EQ(e.key(), "3");
}

TEST(import_config, empty_config_gives_a_complete_platform_with_gpgpusim_structure) {
  const imported_platform p = import_gpgpusim_config("", "empty.config", "", "");
  const YAML::Node root = YAML::Load(p.yaml);
  EXPECT_TRUE(p.unmapped.empty());
  EXPECT_TRUE(p.mapped_keys.empty());
  // GPGPU-Sim's defaults: 10 clusters x 3 cores, 8 channels x 1 sub-partition.
  EXPECT_EQ(text_of(at(root, "gpu.smx.count")), "30");
  EXPECT_EQ(text_of(at(root, "gpu.dram.count")), "8");
  EXPECT_EQ(text_of(at(root, "gpu.l2.count")), "8");
  EXPECT_EQ(text_of(at(root, "clocks.core.frequency")), "500MHz");
  EXPECT_EQ(text_of(at(root, "clocks.dram.frequency")), "2000MHz");
}

// End to end: `gputlm import-config` on the TITAN V configuration writes a platform that
// elaborates, and whose effective value of every key the configuration maps (as
// `--dump-config` prints it) equals yaml/volta.yaml's.
TEST(import_config, the_imported_titanv_elaborates_and_equals_volta_on_every_mapped_key) {
  const std::string dir = GPUTLM_TEST_TMP;
  gputlm::testing::write_text(dir + "/titanv.config", k_titanv_config);
  gputlm::testing::write_text(dir + "/titanv.trace.config", k_titanv_trace);
  const std::string out = dir + "/titanv_imported.yaml";
  std::remove(out.c_str());
  auto r =
      gputlm::testing::run_command(gputlm::testing::gputlm_bin() + " import-config " + dir +
                                       "/titanv.config " + dir + "/titanv.trace.config -o " + out,
                                   "import_e2e");
  ASSERT_EQ(r.status, 0) << r.err;
  // One warning line per option without an equivalent, each at its line in the config.
  const imported_platform expected = import_text(k_titanv_config, k_titanv_trace);
  ASSERT_FALSE(expected.unmapped.empty());
  EXPECT_EQ(std::size_t(std::count(r.err.begin(), r.err.end(), '\n')), expected.unmapped.size())
      << r.err;
  std::istringstream warnings(r.err);
  for (std::string line; std::getline(warnings, line);) {
    EXPECT_EQ(line.rfind("warning: " + dir + "/titanv.", 0), 0u) << line;
    EXPECT_NE(line.find(": no gputlm equivalent"), std::string::npos) << line;
  }
  EXPECT_NE(r.err.find("titanv.config:"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("import-config: wrote " + out), std::string::npos) << r.out;

  auto imported = gputlm::testing::run_command(
      gputlm::testing::gputlm_bin() + " elaborate " + out + " --dump-config", "import_e2e_dump");
  ASSERT_EQ(imported.status, 0) << imported.err;
  auto volta = gputlm::testing::run_command(gputlm::testing::gputlm_bin() + " elaborate " +
                                                std::string(GPUTLM_SOURCE_DIR) +
                                                "/yaml/volta.yaml --dump-config",
                                            "import_e2e_volta");
  ASSERT_EQ(volta.status, 0) << volta.err;
  const YAML::Node a = YAML::Load(imported.out), b = YAML::Load(volta.out);
  const imported_platform p = import_text(k_titanv_config, k_titanv_trace);
  ASSERT_GT(p.mapped_keys.size(), 100u);
  // yaml/volta.yaml models what the configuration models (its silicon departures are in
  // yaml/variants/volta-silicon.yaml): every mapped key is equal.
  for (const auto& [path, option] : p.mapped_keys) {
    SCOPED_TRACE(path + " (" + option + ")");
    ASSERT_TRUE(at(a, path).IsDefined());
    EXPECT_EQ(text_of(at(a, path)), text_of(at(b, path)));
  }
}

// An import that would not elaborate (zero SMs, zero kernel slots, 10^12 registers, a
// 10^12-cycle latency, a 10^12-byte shared memory, zero sub-partitions) is refused: one line naming
// the option at its line and column in the source config, exit 2, nothing written, no scratch copy
// left.
TEST(import_config, an_import_that_would_not_elaborate_names_its_option_and_writes_nothing) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/import_bounds";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  struct bad_value {
    const char* option;
    const char* value;
    const char* says;
  };
  const bad_value cases[] = {
      {"-gpgpu_n_clusters", "0", "must be 1 to 1024"},  // a factor of gpu.smx.count
      {"-gpgpu_max_concurrent_kernel", "0", "gives gpu.kd.entries = 0, which does not elaborate"},
      {"-gpgpu_shader_registers", "1000000000000", "gpu.smx.registers = 1000000000000"},
      {"-gpgpu_l1_latency", "1000000000000",
       "gpu.smx.l1.hit_latency = 1000000000000cycles, which does not elaborate: must be at most "
       "4294967296cycles"},
      {"-gpgpu_shmem_size", "1000000000000", "must be at most 16MiB"},
      {"-gpgpu_n_sub_partition_per_mchannel", "0", "must be 1 to 1024"},
      {"-gpgpu_inst_fetch_throughput", "1000000000000", "gpu.smx.fetch_warps"},
      {"-gpgpu_reg_file_port_throughput", "1000000000000", "must be at most 64"},
  };
  const std::string tmp = dir + "/tmp";  // the command's temporary folder (TMPDIR)
  std::filesystem::create_directories(tmp);
  for (const bad_value& c : cases) {
    SCOPED_TRACE(c.option);
    // The TITAN V config with this option's line replaced (appended when it has none).
    std::istringstream in(k_titanv_config);
    std::string text;
    std::uint64_t line_no = 0, n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      if (line.rfind(std::string(c.option) + " ", 0) == 0) {
        line = std::string(c.option) + " " + c.value;
        line_no = n;
      }
      text += line + "\n";
    }
    if (!line_no) {
      text += std::string(c.option) + " " + c.value + "\n";
      line_no = n + 1;
    }
    gputlm::testing::write_text(dir + "/c.config", text);
    const std::string out = dir + "/out.yaml";
    auto r = gputlm::testing::run_command("TMPDIR=" + tmp + " " + gputlm::testing::gputlm_bin() +
                                              " import-config " + dir + "/c.config -o " + out,
                                          "import_bounds");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("error: " + dir + "/c.config:" + std::to_string(line_no) + ":", 0), 0u)
        << r.err;
    EXPECT_NE(r.err.find(c.option), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
    EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "the scratch copy was left in " << tmp;
  }
}

// Accel-Sim's trace.config given alone would import GPGPU-Sim's default 30-SM chip: refused
// in one line naming its first option, nothing written.
TEST(import_config, a_trace_config_alone_is_refused) {
  const std::string dir = std::string(GPUTLM_TEST_TMP) + "/import_trace_only";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  gputlm::testing::write_text(dir + "/trace.config", k_titanv_trace);
  auto r = gputlm::testing::run_command(gputlm::testing::gputlm_bin() + " import-config " + dir +
                                            "/trace.config -o " + dir + "/out.yaml",
                                        "import_trace_only");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("CONFIG: holds only Accel-Sim trace.config options"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.yaml"));
}

}  // namespace test_import_config
