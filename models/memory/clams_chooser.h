// CLAMS, the criticality-aware memory scheduler of Jog et al. (SIGMETRICS 2016), as LATOA
// compares with it (seed 003 §5): a DRAM request chooser (dram_chooser.h) that serves the
// requests of critical cores first while they are few, and falls back to FR-FCFS when they
// are many. A request's criticality is the rank its core gave it (the priority byte,
// models/core/clams_ranker.h: 1 + rank x 128; 0: none, e.g. a write-back, counts as rank 1).
//   criticality-first  while the channel's queue holds a critical request (rank below
//                      `critical_rank`) and critical requests are fewer than
//                      `switch_fraction` of the queue: per bank, the request to serve is the
//                      one of lowest rank, then a row hit, then the oldest (a request whose
//                      column accesses have started finishes first); among banks, the
//                      bank's choice of lowest rank, row hit, age goes first, its column
//                      command if it hits the open row, else its PRE or ACT;
//   FR-FCFS            otherwise (dram_chooser.cpp).
// `clams_dynamic` (Dynamic CLAMS; its rule is not in our sources, so this one is ours):
// every `window` DRAM cycles the switch fraction moves by `step` in its current direction,
// and the direction turns when the window served fewer requests than the one before
// (hill climbing on served requests), within [0, 1].
// Statistics: critical requests served, commands issued in each mode, the switch fraction
// (its time-weighted mean over windows for the dynamic variant).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "models/common/clams_rank.h"
#include "models/common/param.h"
#include "models/common/stats.h"
#include "models/memory/dram_chooser.h"

namespace gputlm::memory {

class clams_chooser : public dram_chooser {
 public:
  clams_chooser(const strategy_site& s, bool dynamic);
  std::size_t column(dram_engine& e, const dram_engine::column_common& c,
                     std::uint64_t now) override;
  std::size_t row(dram_engine& e, std::uint64_t now) override;
  std::uint64_t next_ready(const dram_engine& e, const dram_engine::column_common& c,
                           std::uint64_t now) override;

  bool critical(std::uint8_t priority) const {
    return clams_rank_128ths(priority) < m_critical_byte;
  }
  double switch_fraction() const { return m_switch; }
  std::uint64_t critical_served() const { return m_critical_served.value(); }
  std::uint64_t critical_first_commands() const { return m_cf_commands.value(); }
  std::uint64_t fr_fcfs_commands() const { return m_fr_commands.value(); }

 private:
  // Per bank, the request criticality-first serves next: its queue position and key (lower
  // first: rank, then row miss, then arrival).
  struct leaders {
    std::uint64_t banks = 0;  // banks with a queued request
    std::size_t at[64];
    std::uint64_t key[64];
    bool hit[64];
    // The queue position of the leader of lowest key among the banks `ok` accepts, or none.
    template <class F>
    std::size_t best(F ok) const {
      std::size_t at_best = none;
      std::uint64_t best_key = dram_engine::never;
      for_each_bank(banks, [&](std::uint32_t b) {
        if (key[b] < best_key && ok(b)) {
          at_best = at[b];
          best_key = key[b];
        }
      });
      return at_best;
    }
  };
  // Whether criticality-first rules now (from the queue's critical share); the leaders when
  // it does.
  bool critical_first(const dram_engine& e, leaders& l) const;
  void adapt(std::uint64_t now);  // Dynamic CLAMS: the window's step
  void served(const dram_engine& e, std::size_t at);

  param<double> m_critical_rank;
  param<double> m_switch_fraction;
  param<std::uint64_t> m_window;
  param<double> m_step;
  bool m_dynamic;
  std::uint32_t m_critical_byte = 64;  // rank x 128 below which a request is critical
  double m_switch = 0.5;
  std::unique_ptr<dram_chooser> m_fr_fcfs;
  // Dynamic CLAMS: the current window's end and served requests, the last window's, the
  // direction, and the sum of the fraction over finished windows.
  std::uint64_t m_window_end = 0;
  std::uint64_t m_served = 0, m_last_served = 0;
  double m_direction = 1.0;
  double m_fraction_sum = 0.0;
  std::uint64_t m_windows = 0;
  counter m_critical_served, m_cf_commands, m_fr_commands;
};

}  // namespace gputlm::memory
