#include "sc_main/commands.h"

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "models/base/command_line.h"
#include "models/base/input_error.h"
#include "models/base/output_files.h"
#include "models/base/units.h"
#include "models/common/edge_scheduler.h"
#include "models/common/stats_forms.h"
#include "models/common/vcd_writer.h"
#include "models/core/smx.h"
#include "models/power/power_model.h"
#include "platforms/platform.h"
#include "sc_main/run_progress.h"
#include "traces/trace_reader.h"

namespace po = boost::program_options;

namespace gputlm::cli {
namespace {

const source_location& k_cmdline = command_line;

void require_file(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw input_error({path, 0, 0}, what, "no such file or directory");
}

// The watchdog's default: far more busy instants without progress than any run needs
// (every sample finishes on every platform with --watchdog 1000; docs/core.md), and little
// host time when blocks do spin.
constexpr std::uint64_t k_default_watchdog = 1'000'000;

// The statistics `gputlm run` writes besides the blocks' (statistic_paths lists them all):
// the summary, the chip's energy with a power table, each kernel's record.
const char* const k_summary[] = {
    "total_cycles", "warp_instructions", "thread_instructions", "simulated_seconds",
    "ipc",          "warp_ipc"};
const char* const k_wall_clock[] = {"wall_seconds", "kips", "analysis_seconds"};
const char* const k_energy[] = {"static_joules", "dynamic_joules", "energy_joules",
                                "average_watts"};
const char* const k_kernel_numbers[] = {
    "finished",          "launch_cycle",        "start_cycle", "end_cycle", "cycles",
    "warp_instructions", "thread_instructions", "ipc",         "tbs"};
const char* const k_power_component[] = {"static_joules", "dynamic_joules", "instances"};
// Written for traces of several streams only (`gputlm trace merge`).
const char* const k_stream_numbers[] = {
    "stream", "kernels", "thread_instructions", "launch_cycle", "end_cycle", "cycles", "ipc"};
// Written for traces with device launches only (dynamic parallelism).
const char* const k_dynamic_parallelism[] = {
    "host_warp_instructions",          "cdp_warp_instructions", "dtbl_group_warp_instructions",
    "dtbl_fallback_warp_instructions", "kernels[*].parent",     "kernels[*].depth",
    "kernels[*].coalesced_into"};

// Every numeric value a run of `p` writes, as a path into the statistics JSON (the paths
// experiment metrics address; `[*]` stands for any index); a value written only by some
// runs is followed by a space and its group (dynamic_parallelism: traces with device
// launches).
std::vector<std::string> statistic_paths(platforms::platform& p) {
  std::vector<std::string> out;
  out.insert(out.end(), std::begin(k_summary), std::end(k_summary));
  out.insert(out.end(), std::begin(k_wall_clock), std::end(k_wall_clock));
  for (const char* d : k_dynamic_parallelism)
    out.push_back(std::string(d) + " " + control::dynamic_parallelism_stats);
  for (const char* k : k_kernel_numbers) out.push_back(std::string("kernels[*].") + k);
  for (const char* k : k_stream_numbers) out.push_back(std::string("streams[*].") + k + " streams");
  if (pm::power_model* pw = p.power()) {
    out.insert(out.end(), std::begin(k_energy), std::end(k_energy));
    std::set<std::string> keys;
    for (const auto& e : pw->entries())
      if (e->modelled) keys.insert(e->key);
    for (const auto& k : keys)
      for (const char* f : k_power_component) out.push_back("power.by_component." + k + "." + f);
  }
  for (auto& b : p.stats().block_stat_paths()) out.push_back(std::move(b));
  return out;
}

// `paths` once per block type: every instance number [N] written [*], in the order of the
// first instance, followed by the number of instances when there are several
// ("blocks.gpu.smx[*].l1.hits (80 instances)"); a group after the path is kept.
std::vector<std::string> paths_by_block_type(const std::vector<std::string>& paths) {
  static const std::regex index(R"(\[[0-9]+\])");
  std::vector<std::string> order;
  std::map<std::string, std::size_t> count;
  for (const std::string& line : paths) {
    const std::size_t space = line.find(' ');
    const std::string path = line.substr(0, space);
    const std::string group = space == std::string::npos ? "" : line.substr(space);
    const std::string type = std::regex_replace(path, index, "[*]") + group;
    if (count[type]++ == 0) order.push_back(type);
  }
  std::vector<std::string> out;
  for (const std::string& t : order)
    out.push_back(count[t] > 1 ? t + " (" + std::to_string(count[t]) + " instances)" : t);
  return out;
}

// A count given on the command line (units::parse_uint: decimal or 0x hex, as parameters).
std::uint64_t parse_count(const std::string& text, const char* option) {
  if (const auto v = units::parse_uint(text)) return *v;
  throw input_error(k_cmdline, option, "expected a count (0 or more), got '" + text + "'");
}

// A kernel's TB log stands in the statistics' JSON tree as this string (k: its workload
// index); write_statistics streams the log in its place. \x01 cannot come from a name:
// the JSON writer escapes it, so the mark is found as "\u0001tb_log k\u0001".
std::string tb_log_mark(std::size_t k) { return "\x01tb_log " + std::to_string(k) + "\x01"; }

// One TB log as the JSON writer would lay it out at indentation `d`: in the full form with
// indent 1, in the compact form one TB per line.
void stream_tb_log(std::ostream& os, const std::vector<control::tb_log_entry>& tbs, std::size_t d,
                   stats_form form) {
  if (tbs.empty()) {
    os << "[]";
    return;
  }
  const std::string row(d + 1, ' '), cell(d + 2, ' ');
  os << "[\n";
  for (std::size_t i = 0; i < tbs.size(); ++i) {
    const control::tb_log_entry& t = tbs[i];
    if (form == stats_form::compact) {
      os << row << "[" << t.tb << "," << t.smx << "," << t.start_cycle << "," << t.end_cycle << "]"
         << (i + 1 < tbs.size() ? ",\n" : "\n");
      continue;
    }
    os << row << "[\n"
       << cell << t.tb << ",\n"
       << cell << t.smx << ",\n"
       << cell << t.start_cycle << ",\n"
       << cell << t.end_cycle << "\n"
       << row << "]" << (i + 1 < tbs.size() ? ",\n" : "\n");
  }
  os << std::string(d, ' ') << "]";
}

// The statistics file: `json` with each kernel's TB log streamed in place of its mark.
void write_statistics(const std::string& path, const std::string& json, control::workload& work,
                      stats_form form) {
  static const std::string open = "\"\\u0001tb_log ", close = "\\u0001\"";
  write_file_atomically(path, [&](std::ostream& os) {
    std::size_t pos = 0;
    while (true) {
      const std::size_t m = json.find(open, pos);
      const std::size_t e = m == std::string::npos ? m : json.find(close, m + open.size());
      if (e == std::string::npos) {
        os.write(json.data() + pos, std::streamsize(json.size() - pos));
        return;
      }
      os.write(json.data() + pos, std::streamsize(m - pos));
      const std::size_t k = std::stoul(json.substr(m + open.size(), e - m - open.size()));
      const std::size_t line = json.rfind('\n', m) + 1;  // the key's indentation
      std::size_t d = 0;
      while (json[line + d] == ' ') ++d;
      stream_tb_log(os, work.kernel(static_cast<std::uint32_t>(k)).tbs, d, form);
      pos = e + close.size();
    }
  });
}

}  // namespace

int elaborate_main(const std::vector<std::string>& args) {
  po::options_description opts("gputlm elaborate PLATFORM.yaml [options]");
  opts.add_options()("help,h", "show this help")("platform", po::value<std::string>(),
                                                 "platform YAML file")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a parameter: path.key=value (e.g. smx[3].l1.size=32KiB, smx.count=16)")(
      "with", po::value<std::vector<std::string>>()->composing(),
      "add a mechanism: a YAML file of blocks and bindings merged onto the platform "
      "(yaml/mechanisms/; repeatable)")(
      "dump-config", "print every effective parameter as YAML that reloads to this platform")(
      "dot", po::value<std::string>(), "write a Graphviz view of blocks and bindings to FILE")(
      "quiet,q", "do not print the hierarchy")(
      "list-stats", po::value<std::string>()->implicit_value("types"),
      "print the path of every statistic a run writes (for experiment metrics); one written "
      "only by some runs is followed by its group. --list-stats (=types): once per block "
      "type, instance numbers as [*] and their count; --list-stats=all: every instance");
  po::positional_options_description pos;
  pos.add("platform", 1);
  auto vm = parse_command_line(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return exit_ok;
  }
  if (!vm.count("platform")) throw input_error(k_cmdline, "PLATFORM", "no platform file given");
  // Outputs are checked before anything is done, so that a run never fails at the end.
  if (vm.count("dot"))
    check_outputs({{"--dot", vm["dot"].as<std::string>()}}, {vm["platform"].as<std::string>()});
  std::vector<std::string> sets, with;
  if (vm.count("set")) sets = vm["set"].as<std::vector<std::string>>();
  if (vm.count("with")) with = vm["with"].as<std::vector<std::string>>();

  auto p = platforms::platform::load(vm["platform"].as<std::string>(), sets, with);
  if (vm.count("dump-config")) {
    p->dump_config(std::cout);
  } else if (!vm.count("quiet")) {
    std::cout << "platform " << p->spec().name << " (" << p->spec().file << ")\n";
    p->print_hierarchy(std::cout);
  }
  if (vm.count("list-stats")) {
    const std::string how = vm["list-stats"].as<std::string>();
    if (how != "types" && how != "all")
      throw input_error(k_cmdline, "--list-stats", "expected types or all, got '" + how + "'");
    const std::vector<std::string> paths = statistic_paths(*p);
    for (const auto& line : how == "all" ? paths : paths_by_block_type(paths))
      std::cout << line << "\n";
  }
  if (vm.count("dot")) {
    std::ostringstream dot;
    p->write_dot(dot);
    write_file_atomically(vm["dot"].as<std::string>(), dot.str());
  }
  return exit_ok;
}

int run_main(const std::vector<std::string>& args) {
  po::options_description opts("gputlm run PLATFORM.yaml TRACE [options]");
  opts.add_options()("help,h", "show this help")("platform", po::value<std::string>(),
                                                 "platform YAML file")(
      "workload", po::value<std::string>(), "trace: a directory with kernelslist.g, or a file")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a parameter: path.key=value")(
      "with", po::value<std::vector<std::string>>()->composing(),
      "add a mechanism: a YAML file of blocks and bindings merged onto the platform "
      "(yaml/mechanisms/; repeatable)")("stats", po::value<std::string>(),
                                        "write statistics as JSON to FILE")(
      "vcd", po::value<std::string>(),
      "write waveforms to FILE.vcd (and a GTKWave layout FILE.gtkw)")(
      "trace", po::value<std::vector<std::string>>()->composing(),
      "with --vcd: trace only signals matching this glob, e.g. 'smx[0].*' (repeatable; adds "
      "to the platform's waveforms.signals)")(
      "vcd-from", po::value<std::string>(),
      "with --vcd: start of the window (e.g. 20000cycles, 15us)")(
      "vcd-to", po::value<std::string>(), "with --vcd: end of the window")(
      "strict", "an unknown opcode is an error (default: counted, run on the INT path)")(
      "no-wall-clock",
      "leave host timing (wall_seconds, kips, analysis_seconds) out of the statistics, so that "
      "the same run always writes byte-identical JSON")(
      "no-tb-log", "leave the per-TB dispatch log out of the statistics")(
      "stats-group", po::value<std::vector<std::string>>()->composing(),
      "also write this group's statistics when the trace does not need them "
      "(dynamic_parallelism: written by itself when the trace launches from the device), "
      "e.g. for a flat baseline's occupancy")(
      "stats-form", po::value<std::string>()->default_value("compact"),
      "the statistics file's form: compact (a table per block type, histograms as their "
      "non-zero buckets) or full (every block by its path, every bucket; docs/statistics.md)")(
      "progress",
      "show the progress line on stderr from the start, even when stderr is not a "
      "terminal (on a terminal it shows by itself after two seconds)")(
      "kernel-every-instant",
      "return to the SystemC kernel after every busy instant instead of running the next "
      "instants ahead of it while no SystemC process is due (slower; the same results)")(
      "watchdog", po::value<std::string>()->default_value(std::to_string(k_default_watchdog)),
      "stop with an error after N busy instants in a row in which no warp instruction issues, "
      "no memory response reaches a core and no thread block or kernel begins or ends: blocks "
      "waking without getting anywhere (a livelock); 0 turns it off");
  po::positional_options_description pos;
  pos.add("platform", 1).add("workload", 1);
  auto vm = parse_command_line(args, opts, pos);
  if (vm.count("help")) {
    std::cout << opts;
    return exit_ok;
  }
  if (!vm.count("platform")) throw input_error(k_cmdline, "PLATFORM", "no platform file given");
  if (!vm.count("workload")) throw input_error(k_cmdline, "TRACE", "no trace given");
  const std::string trace_path = vm["workload"].as<std::string>();
  require_file(trace_path, "TRACE");
  const std::uint64_t watchdog = parse_count(vm["watchdog"].as<std::string>(), "--watchdog");
  const auto form_opt = parse_stats_form(vm["stats-form"].as<std::string>());
  if (!form_opt)
    throw input_error(k_cmdline, "--stats-form",
                      "expected compact or full, got '" + vm["stats-form"].as<std::string>() + "'");
  const stats_form form = *form_opt;
  {  // Outputs are checked before anything runs, so that a run never fails at the end.
    std::vector<std::pair<std::string, std::string>> outs;
    if (vm.count("stats")) outs.emplace_back("--stats", vm["stats"].as<std::string>());
    if (vm.count("vcd")) {
      outs.emplace_back("--vcd", vm["vcd"].as<std::string>());
      outs.emplace_back("--vcd (its GTKWave layout)",
                        vcd_writer::gtkw_path_of(vm["vcd"].as<std::string>()));
    }
    check_outputs(outs, {vm["platform"].as<std::string>(), trace_path});
  }
  std::vector<std::string> sets, with;
  if (vm.count("set")) sets = vm["set"].as<std::vector<std::string>>();
  if (vm.count("with")) with = vm["with"].as<std::vector<std::string>>();

  auto p = platforms::platform::load(vm["platform"].as<std::string>(), sets, with);

  traces::open_options topts;
  topts.strict = vm.count("strict") != 0;
  topts.on_unknown_opcode = [](const traces::unknown_opcode& u) {
    std::cerr << "warning: " << u.first_seen.to_string() << ": unknown opcode '" << u.mnemonic
              << "' (counted, executed on the INT path)\n";
  };
  auto work_owner = std::make_unique<control::workload>(traces::open_trace(trace_path, topts));
  control::workload& work = *work_owner;
  // Open every kernel now (device-launched ones too), so a missing or malformed kernel file,
  // or two kernels with one id, is reported before the simulation starts.
  work.open_all();
  {  // A TB no SMX can hold would never run: an input error now, not a deadlock later.
    std::vector<core::smx_limits> smxs;
    for (component* c : p->components())
      if (auto* s = dynamic_cast<core::smx*>(c)) smxs.push_back(s->limits());
    work.check_fits(smxs);
  }
  if (work.has_device_kernels()) p->stats().enable_group(control::dynamic_parallelism_stats);
  if (vm.count("stats-group"))
    for (const auto& g : vm["stats-group"].as<std::vector<std::string>>()) {
      if (g != control::dynamic_parallelism_stats)
        throw input_error(
            source_location{"<command line>", 0, 0}, "--stats-group",
            "unknown group '" + g + "' (known: " + control::dynamic_parallelism_stats + ")");
      p->stats().enable_group(g);
    }
  // The first kernel's TBs are parsed from here on: the KMU asks for it too, but only once
  // the simulation runs, too late for the first launches of a short kernel.
  if (!work.kernels().empty()) work.reader(0).read_ahead();
  p->set_workload(&work);
  for (component* c : p->components()) c->check_workload();

  std::unique_ptr<vcd_writer> vcd;
  if (vm.count("vcd")) {
    vcd_writer::options vo;
    vo.patterns = p->spec().waveform_signals;
    if (vm.count("trace"))
      for (const auto& t : vm["trace"].as<std::vector<std::string>>()) vo.patterns.push_back(t);
    auto time_of = [&](const char* option) -> std::uint64_t {
      const std::string text = vm[option].as<std::string>();
      if (auto c = units::parse_cycles(text); c && text.find("cycle") != std::string::npos)
        return p->top().clock().edge_time(*c).value();
      if (auto t = units::parse_time(text); t && *t >= 0)
        return static_cast<std::uint64_t>(*t * 1e15 + 0.5);
      throw input_error(
          k_cmdline, std::string("--") + option,
          "expected cycles of the core clock (20000cycles) or a time (15us), got '" + text + "'");
    };
    if (vm.count("vcd-from")) vo.from_fs = time_of("vcd-from");
    if (vm.count("vcd-to")) vo.to_fs = time_of("vcd-to");
    if (vo.to_fs < vo.from_fs) throw input_error(k_cmdline, "--vcd-to", "ends before --vcd-from");
    vcd = std::make_unique<vcd_writer>(vm["vcd"].as<std::string>(), vo);
    for (const auto& d : p->clocks()) {
      if (!vcd->selected("clocks." + d->name(), "frequency_mhz")) continue;
      std::uint32_t id =
          vcd->add_real("clocks." + d->name(), "frequency_mhz", d->frequency() / 1e6);
      vcd_writer* w = vcd.get();
      d->on_change([w, id](const clock_domain& c) { w->change_real(id, c.frequency() / 1e6); });
    }
    for (component* c : p->components()) c->add_traces(*vcd);
  }

  edge_dispatcher::instance().set_watchdog(watchdog);
  edge_dispatcher::instance().set_run_ahead(vm.count("kernel-every-instant") == 0);
  // SystemC's end of elaboration (port binding checks over every socket, the start-of-
  // simulation callbacks) before the clock starts: wall_seconds times the simulation.
  sc_core::sc_get_curr_simcontext()->initialize(true);
  const auto wall_start = std::chrono::steady_clock::now();
  {
    run_progress progress(*p, work, vm.count("progress") != 0);
    sc_core::sc_start();
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (work.error) throw *work.error;        // a trace turned out bad during the run
  if (vcd && vcd->failed()) vcd->finish();  // (throws: nothing written)

  clock_domain& core = p->top().clock();
  // The simulation's end: the last instant run (the kernel's time may lag it, see
  // clock_domain::now_fs).
  const std::uint64_t end_fs = clock_domain::now_fs();
  const double simulated_seconds = sc_core::sc_time::from_value(end_fs).to_seconds();
  const std::uint64_t total_cycles = core.cycle_at_fs(end_fs);
  std::uint64_t warp_insts = 0, thread_insts = 0;
  nlohmann::json kernels = nlohmann::json::array();
  bool all_finished = true;
  for (const auto& k : work.kernels()) {
    warp_insts += k.warp_instructions;
    thread_insts += k.thread_instructions;
    all_finished = all_finished && k.finished;
    const std::uint64_t cycles = k.finished ? k.end_cycle - k.start_cycle : 0;
    nlohmann::json j;
    j["name"] = k.reader ? k.reader->info().name : k.name;
    j["file"] = k.name;
    j["finished"] = k.finished;
    j["launch_cycle"] = k.launch_cycle;
    j["start_cycle"] = k.start_cycle;
    j["end_cycle"] = k.end_cycle;
    j["cycles"] = cycles;
    j["warp_instructions"] = k.warp_instructions;
    j["thread_instructions"] = k.thread_instructions;
    j["ipc"] = cycles ? double(k.thread_instructions) / double(cycles) : 0.0;
    j["tbs"] = k.tbs.size();
    if (k.device) {  // dynamic parallelism: how it was launched, and by which kernel
      j["launch"] = control::to_string(k.how);
      j["parent"] = k.parent;
      j["depth"] = k.depth;
      if (k.how == control::launch_kind::dtbl_group) j["coalesced_into"] = k.coalesced_into;
    }
    // [tb, smx, start cycle, end cycle] per TB: streamed into the file in place of this
    // mark (write_statistics), never built as a JSON tree.
    if (!vm.count("no-tb-log")) j["tb_log"] = tb_log_mark(std::size_t(&k - &work.kernels()[0]));
    kernels.push_back(std::move(j));
  }
  const edge_dispatcher::livelock& livelock = edge_dispatcher::instance().livelock_report();
  // A DeviceKernel entry that no launch named: the trace lists a child nobody launched
  // (when everything launched did finish; else the run stopped before its parent could).
  bool launched_finished = true;
  for (const auto& k : work.kernels())
    if (!(k.device && k.parent == control::kernel_run::none))
      launched_finished = launched_finished && k.finished;
  for (const auto& k : work.kernels())
    if (k.device && k.parent == control::kernel_run::none && !livelock.stopped && launched_finished)
      throw input_error(
          {trace_path, 0, 0}, k.name,
          "a DeviceKernel entry that no CDP.LAUNCH or DTBL.LAUNCH of the trace names");
  if (!all_finished || livelock.stopped) {
    if (!livelock.stopped)  // a setting that explains it: one line naming it
      for (component* c : p->components()) c->explain_deadlock();
    for (component* c : p->components())
      if (std::string w = c->pending_work(); !w.empty())
        std::cerr << "  " << c->name() << ": " << w << "\n";
    if (!livelock.stopped)
      throw std::runtime_error("the simulation ended with kernels unfinished (a deadlock)");
    std::string waking;
    for (const std::string& n : livelock.waking) waking += (waking.empty() ? "" : ", ") + n;
    throw std::runtime_error(
        "no progress for " + std::to_string(watchdog) + " busy instants, stopped at cycle " +
        std::to_string(core.cycle_at(sc_core::sc_time::from_value(livelock.at_fs))) +
        " (a livelock; see --watchdog); still waking: " + waking);
  }

  auto& stats = p->stats();
  stats.set_summary_text("platform", p->spec().name);
  stats.set_summary_text("trace", trace_path);
  stats.set_summary("simulated_seconds", simulated_seconds);
  stats.set_summary_count("total_cycles", total_cycles);
  stats.set_summary_count("warp_instructions", warp_insts);
  stats.set_summary_count("thread_instructions", thread_insts);
  stats.set_summary("ipc", total_cycles ? double(thread_insts) / double(total_cycles) : 0.0);
  stats.set_summary("warp_ipc", total_cycles ? double(warp_insts) / double(total_cycles) : 0.0);
  // Warp instructions by how their kernel was launched.
  if (stats.group_enabled(control::dynamic_parallelism_stats)) {
    std::uint64_t by[4] = {};
    for (const auto& k : work.kernels()) by[std::size_t(k.how)] += k.warp_instructions;
    stats.set_summary_count("host_warp_instructions", by[std::size_t(control::launch_kind::host)]);
    stats.set_summary_count("cdp_warp_instructions", by[std::size_t(control::launch_kind::cdp)]);
    stats.set_summary_count("dtbl_group_warp_instructions",
                            by[std::size_t(control::launch_kind::dtbl_group)]);
    stats.set_summary_count("dtbl_fallback_warp_instructions",
                            by[std::size_t(control::launch_kind::dtbl_fallback)]);
  }
  if (!vm.count("no-wall-clock")) {
    stats.set_summary("wall_seconds", wall);
    stats.set_summary("kips", wall > 0 ? double(warp_insts) / wall / 1e3 : 0.0);
    // Host time of the TB scheduler's locality analysis (PAVER's JIT step; within wall).
    stats.set_summary("analysis_seconds", work.analysis_seconds);
  }
  stats.set_section_json("kernels",
                         kernels.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  // Several streams (a merged, multi-programmed trace: `gputlm trace merge`): each stream's
  // instructions over its own time, from its first launch to its last kernel's end.
  struct stream_record {
    std::uint64_t kernels = 0, thread_instructions = 0, launch_cycle = ~0ull, end_cycle = 0;
  };
  std::map<std::uint64_t, stream_record> streams;
  for (const auto& k : work.kernels()) {
    if (!k.reader) continue;
    stream_record& s = streams[k.reader->info().stream_id];
    ++s.kernels;
    s.thread_instructions += k.thread_instructions;
    s.launch_cycle = std::min(s.launch_cycle, k.launch_cycle);
    s.end_cycle = std::max(s.end_cycle, k.end_cycle);
  }
  if (streams.size() > 1) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& [id, s] : streams) {
      const std::uint64_t cycles = s.end_cycle - s.launch_cycle;
      list.push_back({{"cycles", cycles},
                      {"end_cycle", s.end_cycle},
                      {"ipc", cycles ? double(s.thread_instructions) / double(cycles) : 0.0},
                      {"kernels", s.kernels},
                      {"launch_cycle", s.launch_cycle},
                      {"stream", id},
                      {"thread_instructions", s.thread_instructions}});
    }
    stats.set_section_json("streams", list.dump());
  }
  if (pm::power_model* pw = p->power()) {
    // Chip totals; per block and component in the blocks' `power.*` statistics.
    pw->settle(end_fs);
    const double st = pw->static_joules(end_fs), dyn = pw->dynamic_joules(end_fs);
    stats.set_summary("static_joules", st);
    stats.set_summary("dynamic_joules", dyn);
    stats.set_summary("energy_joules", st + dyn);
    stats.set_summary("average_watts",
                      simulated_seconds > 0 ? (st + dyn) / simulated_seconds : 0.0);
    nlohmann::json by;  // per table entry (block type.component), summed over instances
    for (const auto& e : pw->entries()) {
      if (!e->modelled) continue;
      nlohmann::json& j = by[e->key];
      if (j.is_null()) j = {{"static_joules", 0.0}, {"dynamic_joules", 0.0}, {"instances", 0}};
      j["static_joules"] = j["static_joules"].get<double>() + e->component->static_joules(end_fs);
      j["dynamic_joules"] =
          j["dynamic_joules"].get<double>() + e->component->dynamic_joules(end_fs);
      j["instances"] = j["instances"].get<int>() + 1;
    }
    nlohmann::json section;
    section["source"] = pw->spec().source;
    const auto policies = pw->policies();
    section["policy"] = policies.front().second;
    if (policies.size() > 1) {  // (the key only appears with per-type policies)
      nlohmann::json by_type;
      for (std::size_t i = 1; i < policies.size(); ++i)
        by_type[policies[i].first] = policies[i].second;
      section["policy_by_type"] = by_type;
    }
    section["by_component"] = by;
    stats.set_section_json("power",
                           section.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }

  std::cout << "gputlm run: " << p->spec().name << " (" << p->spec().file << "), trace "
            << trace_path << "\n";
  for (const auto& k : kernels)
    std::cout << "  kernel " << k["file"].get<std::string>() << " (" << k["name"].get<std::string>()
              << "): " << k["cycles"] << " cycles, " << k["warp_instructions"]
              << " warp instructions, IPC " << std::fixed << std::setprecision(2)
              << k["ipc"].get<double>() << std::defaultfloat << "\n";
  stats.write_summary(std::cout);

  if (vcd) vcd->finish();
  if (vm.count("stats"))
    write_statistics(vm["stats"].as<std::string>(), stats_text(stats.document(), form), work, form);
  // Everything is written. The platform and the workload are left to the end of the process
  // (main leaves with _Exit, and nothing they hold writes on destruction): taking apart
  // thousands of SystemC objects, statistics and parsed thread blocks is work for nothing.
  (void)p.release();
  (void)work_owner.release();
  return exit_ok;
}

}  // namespace gputlm::cli
