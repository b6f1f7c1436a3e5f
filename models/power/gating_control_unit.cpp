#include "models/power/gating_control_unit.h"

#include "models/common/block_factory.h"

namespace gputlm::pm {

gating_control_unit::gating_control_unit(const sc_core::sc_module_name& name,
                                         const block_context& ctx)
    : component(name, ctx) {
  declare_port("datapath", datapath);
  add_stat("static_tune_downs", m_tuned, "components tuned down for the whole run");
}

void gating_control_unit::validate() {
  m_components.clear();
  for (const std::string& n : *m_static) {
    std::size_t c = 0;
    while (c < uc_components && n != to_string(uc_component(c))) ++c;
    m_static.require(c < uc_components, "unknown component '" + n +
                                            "' (expected ifid, sch, idoc_sp, oc_sp, ocex_sp, "
                                            "ex_sp, idoc_sfu, ..., ex_ldst)");
    if (c < uc_components) m_components.push_back(uc_component(c));
  }
}

void gating_control_unit::validate_bound() {
  for (uc_component c : m_components)
    m_static.require(datapath->tunable(c), std::string("'") + to_string(c) +
                                               "' has no second group to gate in this SMX's "
                                               "model (only ifid, sch, ex_sp and ex_sfu have)");
}

std::string gating_control_unit::added_hardware() const {
  return "μC-States gating control unit: static tune-down of " +
         std::to_string(m_components.size()) + " components";
}

void gating_control_unit::start_of_simulation() {
  for (uc_component c : m_components) {
    datapath->tune(c, true);
    ++m_tuned;
  }
}

GPUTLM_BLOCK("gating_control_unit", gating_control_unit,
             "μC-States gating control unit: tunes an SMX's datapath components down", {});

}  // namespace gputlm::pm
