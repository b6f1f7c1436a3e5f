// μC-States' Gating Control Unit of one SMX (Kayiran et al., "μC-States: Fine-grained GPU
// Datapath Power Management", PACT 2016, §3.2 and §4; seed 002): a controller beside the
// SMX (`gpu.smx[i].gcu`), bound to the SMX's `datapath` (core::datapath_gates). What it does
// today: the paper's static tuned-down configurations (Table 2), `static_tune_down` naming
// the components whose group 1 is gated for the whole run, e.g. [ex_sp] (C_SP) or
// [ex_sp, ex_sfu]. A component the SMX has no second group for yet (only fetch/decode, the
// schedulers and the SP and SFU execution units have one) is refused at elaboration in one
// line. Algorithm 1's
// run-time phases (gating_control_logic.h, tested on its own) are not wired to the SMX yet.
#pragma once

#include <string>
#include <vector>

#include "models/common/component.h"
#include "models/common/ports.h"
#include "models/common/stats.h"
#include "models/core/datapath_gates.h"
#include "models/power/gating_control_logic.h"

namespace gputlm::pm {

class gating_control_unit : public component {
 public:
  gating_control_unit(const sc_core::sc_module_name& name, const block_context& ctx);
  void validate() override;
  void validate_bound() override;
  std::string added_hardware() const override;
  void start_of_simulation() override;

  required_port<core::datapath_gates> datapath{"datapath"};

 private:
  string_list_param m_static{*this,
                             "static_tune_down",
                             {},
                             "components tuned down for the whole run (Table 2): ifid, sch, "
                             "idoc_sp, oc_sp, ocex_sp, ex_sp, ..., ex_ldst"};
  std::vector<uc_component> m_components;  // parsed from m_static
  counter m_tuned;
};

}  // namespace gputlm::pm
