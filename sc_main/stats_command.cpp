// `gputlm stats`: a run's statistics file read back, as a summary or under the names
// GPGPU-Sim prints (gpu-sim.cc `gpu_print_stat`, the caches' `print_stats`), which
// Accel-Sim's get_stats.py greps for. docs/statistics.md lists the names and their sources.
#include "sc_main/stats_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "models/base/input_error.h"
#include "models/base/output_files.h"
#include "models/common/stats_forms.h"
#include "models/memory/access_breakdown.h"

namespace gputlm::cli {
namespace {

namespace po = boost::program_options;

// A number of `o` under `key`, or an error naming the file and the key.
double number(const nlohmann::json& o, const std::string& key, const std::string& where,
              const std::string& path = "") {
  const auto it = o.find(key);
  if (it == o.end() || !it->is_number())
    throw input_error({where, 0, 0}, path.empty() ? key : path + "." + key,
                      "missing or not a number: not a gputlm statistics file?");
  return it->get<double>();
}

// A number of `o` under `key`, 0 when absent (a statistic a block does not have).
double number_or_0(const nlohmann::json& o, const std::string& key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The totals of the cache or DRAM instances of one kind.
struct totals {
  std::size_t instances = 0;
  double accesses = 0, hits = 0, pending_hits = 0, misses = 0, reservation_fails = 0;
  double reads = 0, writes = 0, bytes = 0;
};

totals sum_blocks(const nlohmann::json& blocks, const std::regex& path) {
  totals t;
  for (const auto& [name, b] : blocks.items()) {
    if (!std::regex_match(name, path) || !b.is_object()) continue;
    ++t.instances;
    t.accesses += number_or_0(b, "accesses");
    t.hits += number_or_0(b, "hits");
    t.pending_hits += number_or_0(b, "mshr_hits");
    t.misses += number_or_0(b, "line_misses") + number_or_0(b, "sector_misses");
    for (const auto& [k, v] : b.items())
      if (k.rfind("reservation_fails.", 0) == 0 && v.is_number())
        t.reservation_fails += v.get<double>();
    t.reads += number_or_0(b, "reads");
    t.writes += number_or_0(b, "writes");
    t.bytes += number_or_0(b, "bytes");
  }
  return t;
}

const std::regex& l1_path() {
  static const std::regex r(R"(gpu\.smx\[\d+\]\.l1)");
  return r;
}
const std::regex& smx_path() {
  static const std::regex r(R"(gpu\.smx\[\d+\])");
  return r;
}
const std::regex& l2_path() {
  static const std::regex r(R"(gpu\.l2\[\d+\])");
  return r;
}
const std::regex& dram_path() {
  static const std::regex r(R"(gpu\.dram\[\d+\])");
  return r;
}

// A statistics file's run-wide values, each checked present.
struct run_view {
  run_view(const nlohmann::json& s, const std::string& where)
      : cycles(number(s, "total_cycles", where)),
        thread_insn(number(s, "thread_instructions", where)),
        warp_insn(number(s, "warp_instructions", where)),
        seconds(number(s, "simulated_seconds", where)),
        blocks(member(s, "blocks", where, &nlohmann::json::is_object)),
        kernels(member(s, "kernels", where, &nlohmann::json::is_array)) {}
  double cycles, thread_insn, warp_insn, seconds;
  const nlohmann::json& blocks;
  const nlohmann::json& kernels;

 private:
  static const nlohmann::json& member(const nlohmann::json& s, const char* key,
                                      const std::string& where,
                                      bool (nlohmann::json::*is)() const noexcept) {
    const auto it = s.find(key);
    if (it == s.end() || !((*it).*is)())
      throw input_error({where, 0, 0}, key, "missing: not a gputlm statistics file?");
    return *it;
  }
};

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// The kernels in the order they finished (launch order among equals), with their index in
// the file: GPGPU-Sim prints a kernel's lines when it completes.
std::vector<std::size_t> completion_order(const nlohmann::json& kernels, const std::string& where) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string path = "kernels[" + std::to_string(i) + "]";
    number(kernels[i], "end_cycle", where, path);
    if (kernels[i].value("finished", false)) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return kernels[a]["end_cycle"].get<double>() < kernels[b]["end_cycle"].get<double>();
  });
  return order;
}

nlohmann::json parse_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw input_error({file, 0, 0}, "stats", "cannot read the file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // The byte the parser stopped at, as a line and column.
    const std::size_t at = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    const std::size_t nl = text.rfind('\n', at > 0 ? at - 1 : 0);
    const std::size_t col = nl == std::string::npos || at == 0 ? at + 1 : at - nl;
    throw input_error({file, static_cast<std::uint64_t>(line), col}, "stats",
                      "not JSON (a statistics file is what `gputlm run --stats` writes)");
  }
}

// GPGPU-Sim's cache_stats breakdown of a set of caches: per mem_access_type and request
// status, in its order (models/memory/access_breakdown.h; its two types we do not have stay 0).
using memory::access_outcome;
using memory::gpgpusim_index;
using memory::gpgpusim_statuses;
using memory::gpgpusim_types;
constexpr std::size_t gs_hit = gpgpusim_index(access_outcome::hit);
constexpr std::size_t gs_hit_reserved = gpgpusim_index(access_outcome::hit_reserved);
constexpr std::size_t gs_miss = gpgpusim_index(access_outcome::miss);
constexpr std::size_t gs_sector_miss = gpgpusim_index(access_outcome::sector_miss);
constexpr std::size_t gs_mshr_hit = gpgpusim_index(access_outcome::mshr_hit);
constexpr std::size_t gs_reservation_fail = gpgpusim_index(access_outcome::reservation_fail);
constexpr std::size_t gs_inst = gpgpusim_index(memory::access_type::instruction_read);

struct breakdown {
  std::array<std::array<double, gpgpusim_statuses.size()>, gpgpusim_types.size()> v{};
  // GPGPU-Sim's cache_sub_stats of it (cache_stats::get_sub_stats).
  double accesses() const { return sum({gs_hit, gs_miss, gs_sector_miss, gs_hit_reserved}); }
  double misses() const { return sum({gs_miss, gs_sector_miss}); }
  double pending_hits() const { return sum({gs_hit_reserved}); }
  double reservation_fails() const { return sum({gs_reservation_fail}); }
  void add(const breakdown& o) {
    for (std::size_t t = 0; t < v.size(); ++t)
      for (std::size_t s = 0; s < v[t].size(); ++s) v[t][s] += o.v[t][s];
  }

 private:
  double sum(std::initializer_list<std::size_t> statuses) const {
    double n = 0;
    for (const auto& type : v)
      for (const std::size_t s : statuses) n += type[s];
    return n;
  }
};

// A data cache's by_access.<type>.<outcome> statistics (models/memory/access_breakdown.h).
breakdown data_cache_breakdown(const nlohmann::json& b) {
  breakdown r;
  for (std::size_t t = 0; t < memory::access_types; ++t) {
    const auto type = static_cast<memory::access_type>(t);
    for (std::size_t o = 0; o < memory::access_outcomes; ++o) {
      const auto outcome = static_cast<access_outcome>(o);
      r.v[gpgpusim_index(type)][gpgpusim_index(outcome)] +=
          number_or_0(b, std::string("by_access.") + memory::to_string(type) + "." +
                             memory::to_string(outcome));
    }
  }
  return r;
}

// An SMX's instruction cache (its icache_* statistics) as GPGPU-Sim's read-only L1I counts
// it: a lookup joining a missing line is HIT_RESERVED and an MSHR_HIT.
breakdown instruction_cache_breakdown(const nlohmann::json& smx) {
  breakdown r;
  auto& t = r.v[gs_inst];
  t[gs_hit] = number_or_0(smx, "icache_hits");
  t[gs_miss] = number_or_0(smx, "icache_misses");
  t[gs_hit_reserved] = t[gs_mshr_hit] = number_or_0(smx, "icache_merged");
  t[gs_reservation_fail] = number_or_0(smx, "icache_reservation_fails");
  return r;
}

bool has_breakdown(const nlohmann::json& blocks) {
  for (const auto& [name, b] : blocks.items())
    if (b.is_object())
      for (const auto& [k, v] : b.items())
        if (k.rfind("by_access.", 0) == 0) return true;
  return false;
}

void print_breakdown(const breakdown& b, const char* name, std::ostream& out) {
  for (std::size_t t = 0; t < gpgpusim_types.size(); ++t)
    for (std::size_t s = 0; s < gpgpusim_statuses.size(); ++s)
      out << fmt::format("\t{}[{}][{}] = {:.0f}\n", name, gpgpusim_types[t], gpgpusim_statuses[s],
                         b.v[t][s]);
  // A type's total: its accesses, without the held requests (RESERVATION_FAIL) and the
  // MSHR_HIT that a HIT_RESERVED or SECTOR_MISS also counts; for the types accessed.
  for (std::size_t t = 0; t < gpgpusim_types.size(); ++t) {
    double total = 0;
    for (std::size_t s = 0; s < gpgpusim_statuses.size(); ++s)
      if (s != gs_reservation_fail && s != gs_mshr_hit) total += b.v[t][s];
    if (total > 0)
      out << fmt::format("\t{}[{}][TOTAL_ACCESS] = {:.0f}\n", name, gpgpusim_types[t], total);
  }
}

// The instance number N of "gpu.smx[N]", "gpu.smx[N].l1" or "gpu.l2[N]".
std::size_t instance(const std::string& path) {
  const std::size_t open = path.find('[');
  return std::stoul(path.substr(open + 1, path.find(']') - open - 1));
}

// The caches' lines of GPGPU-Sim's gpu_print_stat: the core caches (shader.cc
// shader_print_cache_stats) and their breakdown, then the L2 banks and theirs. From a file
// without the breakdown (written before it existed), the totals of the caches' counters.
void print_caches_accelsim(const nlohmann::json& blocks, const totals& l1_legacy,
                           const totals& l2_legacy, std::ostream& out) {
  const auto sub_stats = [&](const char* prefix, const char* indent, double accesses, double misses,
                             double pending, double fails) {
    out << fmt::format("{}{}_total_cache_accesses = {:.0f}\n", indent, prefix, accesses);
    out << fmt::format("{}{}_total_cache_misses = {:.0f}\n", indent, prefix, misses);
    if (accesses > 0)
      out << fmt::format("{}{}_total_cache_miss_rate = {:.4f}\n", indent, prefix,
                         misses / accesses);
    out << fmt::format("{}{}_total_cache_pending_hits = {:.0f}\n", indent, prefix, pending);
    out << fmt::format("{}{}_total_cache_reservation_fails = {:.0f}\n", indent, prefix, fails);
  };
  if (!has_breakdown(blocks)) {
    sub_stats("L1D", "", l1_legacy.accesses, l1_legacy.misses, l1_legacy.pending_hits,
              l1_legacy.reservation_fails);
    sub_stats("L2", "", l2_legacy.accesses, l2_legacy.misses, l2_legacy.pending_hits,
              l2_legacy.reservation_fails);
    return;
  }
  // The instances in numeric order (the file's keys sort as text: smx[10] before smx[2]).
  std::map<std::size_t, const nlohmann::json*> smxs, l1s, l2s;
  for (const auto& [name, b] : blocks.items()) {
    if (!b.is_object()) continue;
    if (std::regex_match(name, smx_path())) smxs[instance(name)] = &b;
    if (std::regex_match(name, l1_path())) l1s[instance(name)] = &b;
    if (std::regex_match(name, l2_path())) l2s[instance(name)] = &b;
  }
  breakdown l1i, l1d, l2;
  for (const auto& [i, b] : smxs) l1i.add(instruction_cache_breakdown(*b));
  const auto cache_line = [&](const char* name, std::size_t i, const breakdown& c) {
    out << fmt::format(
        "{}[{}]: Access = {:.0f}, Miss = {:.0f}, Miss_rate = {:.3f}, Pending_hits = {:.0f}, "
        "Reservation_fails = {:.0f}\n",
        name, i, c.accesses(), c.misses(), ratio(c.misses(), c.accesses()), c.pending_hits(),
        c.reservation_fails());
  };
  out << "\n========= Core cache stats =========\n";
  if (std::any_of(smxs.begin(), smxs.end(),
                  [](const auto& s) { return s.second->contains("icache_accesses"); })) {
    out << "L1I_cache:\n";
    sub_stats("L1I", "\t", l1i.accesses(), l1i.misses(), l1i.pending_hits(),
              l1i.reservation_fails());
  }
  out << "L1D_cache:\n";
  for (const auto& [i, b] : l1s) {
    const breakdown c = data_cache_breakdown(*b);
    out << "\t";
    cache_line("L1D_cache_core", i, c);
    l1d.add(c);
  }
  sub_stats("L1D", "\t", l1d.accesses(), l1d.misses(), l1d.pending_hits(), l1d.reservation_fails());
  breakdown core = l1i;
  core.add(l1d);
  out << "\nTotal_core_cache_stats:\n";
  print_breakdown(core, "Total_core_cache_stats_breakdown", out);
  out << "\n========= L2 cache stats =========\n";
  for (const auto& [i, b] : l2s) {
    const breakdown c = data_cache_breakdown(*b);
    cache_line("L2_cache_bank", i, c);
    l2.add(c);
  }
  sub_stats("L2", "", l2.accesses(), l2.misses(), l2.pending_hits(), l2.reservation_fails());
  out << "L2_total_cache_breakdown:\n";
  print_breakdown(l2, "L2_cache_stats_breakdown", out);
}

}  // namespace

void print_stats_summary(const nlohmann::json& s, const std::string& where, std::ostream& out) {
  const run_view r(s, where);
  const double cycles = r.cycles, thread_insn = r.thread_insn, warp_insn = r.warp_insn;
  const double seconds = r.seconds;
  const nlohmann::json &blocks = r.blocks, &kernels = r.kernels;
  out << fmt::format("platform {}, trace {}\n", s.value("platform", std::string("?")),
                     s.value("trace", std::string("?")));
  out << fmt::format(
      "cycles {:.0f} ({:.4g} s simulated); instructions {:.0f} warp, {:.0f} thread; "
      "IPC {:.4g} thread, {:.4g} warp\n",
      cycles, seconds, warp_insn, thread_insn, ratio(thread_insn, cycles),
      ratio(warp_insn, cycles));
  out << fmt::format("kernels {}\n", kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const nlohmann::json& k = kernels[i];
    out << fmt::format("  {:>4} {}  cycles {:.0f} ({:.0f}-{:.0f})  TBs {:.0f}  IPC {:.4g}{}\n",
                       i + 1, k.value("name", std::string("?")), number_or_0(k, "cycles"),
                       number_or_0(k, "start_cycle"), number_or_0(k, "end_cycle"),
                       number_or_0(k, "tbs"), number_or_0(k, "ipc"),
                       k.value("finished", false) ? "" : "  (not finished)");
  }
  const auto cache = [&](const char* name, const totals& t) {
    if (!t.instances) return;
    out << fmt::format(
        "{} ({} instances): accesses {:.0f}, hits {:.0f}, MSHR hits {:.0f}, misses {:.0f} "
        "(miss rate {:.4f}), reservation fails {:.0f}\n",
        name, t.instances, t.accesses, t.hits, t.pending_hits, t.misses,
        ratio(t.misses, t.accesses), t.reservation_fails);
  };
  cache("L1", sum_blocks(blocks, l1_path()));
  cache("L2", sum_blocks(blocks, l2_path()));
  const totals d = sum_blocks(blocks, dram_path());
  if (d.instances)
    out << fmt::format(
        "DRAM ({} channels): reads {:.0f}, writes {:.0f}, {:.0f} bytes, {:.4g} GB/s\n", d.instances,
        d.reads, d.writes, d.bytes, ratio(d.bytes, seconds) / 1e9);
  if (s.contains("energy_joules"))
    out << fmt::format("energy {:.4g} J ({:.4g} J static, {:.4g} J dynamic), {:.4g} W average\n",
                       number_or_0(s, "energy_joules"), number_or_0(s, "static_joules"),
                       number_or_0(s, "dynamic_joules"), number_or_0(s, "average_watts"));
}

void print_stats_accelsim(const nlohmann::json& s, const std::string& where, std::ostream& out) {
  const run_view r(s, where);
  const double cycles = r.cycles, thread_insn = r.thread_insn, warp_insn = r.warp_insn;
  const double seconds = r.seconds;
  const nlohmann::json &blocks = r.blocks, &kernels = r.kernels;
  // Per kernel, at its completion: its own cycles and instructions, and the run's so far
  // (gpu_tot_sim_cycle: the cycle it ended at).
  double tot_insn = 0, tot_tbs = 0;
  for (const std::size_t i : completion_order(kernels, where)) {
    const nlohmann::json& k = kernels[i];
    const double kc = number_or_0(k, "cycles"), ki = number_or_0(k, "thread_instructions");
    const double end = number_or_0(k, "end_cycle");
    tot_insn += ki;
    tot_tbs += number_or_0(k, "tbs");
    out << fmt::format("kernel_name = {} \n", k.value("name", std::string("?")));
    out << fmt::format("kernel_launch_uid = {} \n", i + 1);
    out << fmt::format("gpu_sim_cycle = {:.0f}\n", kc);
    out << fmt::format("gpu_sim_insn = {:.0f}\n", ki);
    out << fmt::format("gpu_ipc = {:12.4f}\n", ratio(ki, kc));
    out << fmt::format("gpu_tot_sim_cycle = {:.0f}\n", end);
    out << fmt::format("gpu_tot_sim_insn = {:.0f}\n", tot_insn);
    out << fmt::format("gpu_tot_ipc = {:12.4f}\n", ratio(tot_insn, end));
    out << fmt::format("gpu_tot_issued_cta = {:.0f}\n", tot_tbs);
  }
  // The run's totals last, so that a script taking each name's last value reads them.
  out << "----- gputlm: totals of the run -----\n";
  out << fmt::format("gpu_tot_sim_cycle = {:.0f}\n", cycles);
  out << fmt::format("gpu_tot_sim_insn = {:.0f}\n", thread_insn);
  out << fmt::format("gpu_tot_ipc = {:12.4f}\n", ratio(thread_insn, cycles));
  out << fmt::format("gpgpu_n_tot_thrd_icount = {:.0f}\n", thread_insn);
  out << fmt::format("gpgpu_n_tot_w_icount = {:.0f}\n", warp_insn);
  const totals l1 = sum_blocks(blocks, l1_path()), l2 = sum_blocks(blocks, l2_path());
  const totals d = sum_blocks(blocks, dram_path());
  out << fmt::format("L2_BW  = {:12.4f} GB/Sec\n", ratio(l2.accesses * 32, seconds) / 1e9);
  print_caches_accelsim(blocks, l1, l2, out);
  out << fmt::format("total dram reads = {:.0f}\n", d.reads);
  out << fmt::format("total dram writes = {:.0f}\n", d.writes);
  // The host's time (a run without --no-wall-clock), in GPGPU-Sim's whole seconds, at least 1
  // (gpgpusim_entrypoint.cc print_simulation_time); the slowdown against the simulated clock.
  if (const auto w = s.find("wall_seconds"); w != s.end() && w->is_number()) {
    const auto secs = static_cast<std::uint64_t>(std::max(1.0, std::floor(w->get<double>())));
    out << fmt::format("\n\ngpgpu_simulation_time = {} days, {} hrs, {} min, {} sec ({} sec)\n",
                       secs / 86400, secs / 3600 % 24, secs / 60 % 60, secs % 60, secs);
    out << fmt::format("gpgpu_simulation_rate = {} (inst/sec)\n",
                       static_cast<std::uint64_t>(thread_insn) / secs);
    const std::uint64_t cycles_per_sec = static_cast<std::uint64_t>(cycles) / secs;
    out << fmt::format("gpgpu_simulation_rate = {} (cycle/sec)\n", cycles_per_sec);
    if (cycles_per_sec > 0 && seconds > 0)
      out << fmt::format("gpgpu_silicon_slowdown = {}x\n",
                         static_cast<std::uint64_t>(cycles / seconds) / cycles_per_sec);
  }
}

int stats_main(const std::vector<std::string>& args) {
  po::options_description opts("Options");
  opts.add_options()("help,h", "show this help")(
      "accelsim", "print under GPGPU-Sim's names and layout (docs/statistics.md)")(
      "form", po::value<std::string>(),
      "print the file itself in this form: full or compact (docs/statistics.md)")(
      "file", po::value<std::string>(), "the statistics file (gputlm run --stats)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw input_error({"<command line>", 0, 0}, "stats", e.what());
  }
  if (vm.count("help")) {
    std::cout << "Usage: gputlm stats FILE.json [--accelsim | --form full|compact]\n\n"
                 "Prints a statistics file (gputlm run --stats) as a summary: cycles, IPC,\n"
                 "each kernel, the L1s', the L2's and DRAM's totals, energy. With --accelsim,\n"
                 "under the names GPGPU-Sim prints (gpu_tot_sim_cycle, gpu_tot_ipc,\n"
                 "L1D_total_cache_*, ...), so that Accel-Sim's get_stats scripts read it.\n"
                 "With --form, the file itself in the full or the compact form (the full form\n"
                 "of a compact file is byte for byte what --stats-form full writes).\n\n"
              << opts;
    return exit_ok;
  }
  if (!vm.count("file"))
    throw input_error({"<command line>", 0, 0}, "stats", "no statistics file given");
  const std::string file = vm["file"].as<std::string>();
  std::optional<stats_form> form;
  if (vm.count("form")) {
    form = parse_stats_form(vm["form"].as<std::string>());
    if (!form)
      throw input_error({"<command line>", 0, 0}, "--form",
                        "expected full or compact, got '" + vm["form"].as<std::string>() + "'");
    if (vm.count("accelsim"))
      throw input_error({"<command line>", 0, 0}, "--form", "not with --accelsim");
  }
  const nlohmann::json raw = parse_file(file);
  if (!raw.is_object())
    throw input_error({file, 1, 1}, "stats", "not a JSON object: not a gputlm statistics file?");
  nlohmann::json s;
  try {
    s = full_stats(raw);
  } catch (const std::invalid_argument& e) {
    throw input_error({file, 0, 0}, "stats", std::string("not in the compact form: ") + e.what());
  }
  std::ostringstream out;  // all or nothing: an error leaves stdout empty
  if (form)
    out << stats_text(s, *form);
  else if (vm.count("accelsim"))
    print_stats_accelsim(s, file, out);
  else
    print_stats_summary(s, file, out);
  std::cout << out.str();
  return exit_ok;
}

}  // namespace gputlm::cli
