// Transactor for the SMX scheduler's TB dispatch unit in RTL (rtl/tb_dispatch/
// tb_dispatch.sv, Verilated): the register writes and dispatches of tb_dispatch_backend
// turned into requests on the RTL's valid-ready channels, each waited on for its response
// (docs/rtl.md). A request carries a register's packed words (register_layout.h) on
// req_data; a dispatch's response is the TBCR the RTL wrote. Built for at most
// `rtl_kdes` KDEs and `rtl_smxs` SMXs, one warp size, a power of two (the Verilated
// storage); anything else is refused at construction. `Model` is Vtb_dispatch, or
// Vtb_dispatch_off_by_one (built with TBD_OFF_BY_ONE, a deliberate bug the tests catch).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>

#include "models/control/tb_dispatch_backend.h"
#include "models/rtl/verilated_block.h"

class Vtb_dispatch;
class Vtb_dispatch_off_by_one;

namespace gputlm::rtl {

struct tb_dispatch_rtl_limits {
  static constexpr std::size_t rtl_kdes = 128;  // the Verilated build's KDES
  static constexpr std::size_t rtl_smxs = 128;  // and SMXS
  static constexpr std::uint32_t max_warp_size = 1u << 15;
};

template <class Model>
class basic_tb_dispatch_rtl final : public control::tb_dispatch_backend,
                                    public tb_dispatch_rtl_limits {
 public:
  // Throws std::invalid_argument when the SMXs or the warp size do not fit the RTL.
  basic_tb_dispatch_rtl(std::size_t smxs, std::uint32_t warp_size, bool shared_smxs);

  void write_caps(std::uint32_t smx,
                  const control::reg_words<control::caps_layout::words>& caps) override;
  void write_kde(std::uint32_t kde,
                 const control::reg_words<control::kde_layout::words>& words) override;
  bool dispatch(std::uint32_t& smx, control::reg_words<control::tbcr_layout::words>& tbcr) override;
  void release(std::uint32_t smx,
               const control::reg_words<control::tbcr_layout::words>& tbcr) override;
  void trace(vcd_writer& vcd, const std::string& group) override;

  // The RTL's count of TBs on all SMXs.
  std::uint32_t resident_tbs() const;
  // Drives one request with `count` words on req_data (the rest zero), takes its response
  // after `hold` edges with rsp_ready low (back-pressure, tests) and returns rsp_found.
  bool request(std::uint8_t op, std::uint32_t index, const std::uint64_t* words, std::size_t count,
               unsigned hold = 0);
  bool req_ready() const;
  // Whether req_ready was ever high while a response was held (it must not be).
  bool ready_while_held() const { return m_ready_while_held; }
  std::uint64_t edges() const { return m_rtl.edges(); }

 private:
  enum op : std::uint8_t { op_caps, op_kde, op_dispatch, op_release };
  verilated_block<Model> m_rtl{"tb_dispatch"};
  bool m_ready_while_held = false;
  std::uint32_t m_rsp_smx = 0;  // the last response's fields, read before it was taken
  control::reg_words<control::tbcr_layout::words> m_rsp_tbcr{};
};

using tb_dispatch_rtl = basic_tb_dispatch_rtl<Vtb_dispatch>;
using tb_dispatch_rtl_off_by_one = basic_tb_dispatch_rtl<Vtb_dispatch_off_by_one>;
extern template class basic_tb_dispatch_rtl<Vtb_dispatch>;
extern template class basic_tb_dispatch_rtl<Vtb_dispatch_off_by_one>;

class rtl_choice;
// The transactor of the build `choice` names (rtl_source.h: Vtb_dispatch or its off-by-one
// variant); its clock edges become the owner's statistic (rtl_choice::count_edges).
std::unique_ptr<control::tb_dispatch_backend> make_tb_dispatch_rtl(rtl_choice& choice,
                                                                   std::size_t smxs,
                                                                   std::uint32_t warp_size,
                                                                   bool shared_smxs);

}  // namespace gputlm::rtl
