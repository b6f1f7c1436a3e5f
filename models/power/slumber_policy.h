// Slumber (Tripathy's thesis ch. 6) and its baseline, the Warped Register File (WRF,
// Abdel-Majeed & Annavaram, HPCA 2013, as the thesis states its rule), as gating policies of
// the SMX's register file (`power.policy: {smx: slumber}` or `{smx: wrf}`). Each manages
// `smx.register_file` through the Slumber control unit the SMX instantiates beside its
// register file (slumber_control_unit.h); the register file's power elements are then its
// 128-byte warp registers (registers / warp size) instead of its banks.
//
// Parameters: counter_bits (the wake-up counter's width, default 10), l1_latency,
// l2_latency, dram_latency (the minimum round trips of a load served by the L1, the L2 and
// DRAM that the MSHR tracker's prediction uses; cycles, default 0: the smallest round trip
// the unit has observed so far, as a microbenchmark would measure it), ss_state, ds_state,
// off_state (the register file's states used as SS, DS and OFF; default shallow_sleep,
// deep_sleep, off).
#pragma once

#include <string>
#include <vector>

#include "models/power/gating_policy.h"
#include "models/power/power_component.h"

namespace gputlm::pm {

class slumber_control_unit;

struct slumber_params {
  bool wrf = false;  // WRF's rule instead of Slumber's
  std::uint32_t counter_bits = 10;
  std::uint64_t l1_latency = 0, l2_latency = 0, dram_latency = 0;  // cycles; 0: learned
};

class slumber_policy final : public gating_policy {
 public:
  explicit slumber_policy(const policy_spec& spec);

  const slumber_params& params() const { return m_params; }
  const policy_spec& spec() const { return m_spec; }
  // The SMX's register file (`smx.register_file`): it must have the three states.
  void attach(power_component& c, const std::string& key, std::uint64_t period_fs) override;
  void adopt(power_component& c, slumber_control_unit& unit);
  bool manages(const power_component& c) const { return c.policy_bound(this); }
  // State indices in `c`: SS, DS, OFF.
  std::uint32_t ss_state(const power_component& c) const { return state_index(c, m_ss); }
  std::uint32_t ds_state(const power_component& c) const { return state_index(c, m_ds); }
  std::uint32_t off_state(const power_component& c) const { return state_index(c, m_off); }
  void settle(power_component& c, std::uint64_t now_fs) override;

 private:
  std::uint32_t state_index(const power_component& c, const std::string& name) const;
  slumber_params m_params;
  std::string m_ss = "shallow_sleep", m_ds = "deep_sleep", m_off = "off";
  policy_spec m_spec;
  std::vector<slumber_control_unit*> m_units;  // by policy slot
};

}  // namespace gputlm::pm
