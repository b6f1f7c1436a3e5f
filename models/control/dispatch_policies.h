// Strategies of the SMX scheduler, chosen by name in YAML (`tb_selection`,
// `smx_selection`), so that later policies (locality-graph groups, priorities, SMX
// binding, diversion, offloading) plug in without touching the scheduler.
//
// Baseline (DTBL thesis §2.2): Kernel Distributor entries in FCFS order, TBs in increasing
// id, each to the next SMX in round-robin order with room by every limit.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/control/control_registers.h"

namespace gputlm::control {

// Chooses which KDE supplies the next TB. `entries` are the valid KDEs; `can_place(i)`
// says whether entries[i]'s next TB fits on some SMX now. Returns an index or -1.
class tb_selection_policy {
 public:
  virtual ~tb_selection_policy() = default;
  virtual int pick(const std::vector<kde_record>& entries,
                   const std::function<bool(std::size_t)>& can_place) = 0;
};

// Chooses the SMX for a TB among `smx_count`; `fits(s)` says whether SMX s has room.
// Returns an SMX index or -1.
class smx_selection_policy {
 public:
  virtual ~smx_selection_policy() = default;
  virtual int pick(std::size_t smx_count, const std::function<bool(std::size_t)>& fits) = 0;
};

// FCFS: the oldest entry with TBs left that can be placed.
class fcfs_tb_selection : public tb_selection_policy {
 public:
  int pick(const std::vector<kde_record>& entries,
           const std::function<bool(std::size_t)>& can_place) override;
};

// Round robin: the first SMX with room after the one chosen last.
class round_robin_smx_selection : public smx_selection_policy {
 public:
  int pick(std::size_t smx_count, const std::function<bool(std::size_t)>& fits) override;

 private:
  std::size_t m_next = 0;
};

std::unique_ptr<tb_selection_policy> make_tb_selection(const std::string& name);
std::unique_ptr<smx_selection_policy> make_smx_selection(const std::string& name);

}  // namespace gputlm::control
