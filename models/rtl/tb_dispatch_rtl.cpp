#include "models/rtl/tb_dispatch_rtl.h"

#include <string>

// (Verilator's headers call sc_time_stamp() unqualified once SystemC's are included.)
using sc_core::sc_time_stamp;

#include "Vtb_dispatch.h"
#include "Vtb_dispatch_off_by_one.h"
#include "models/common/clock_domain.h"
#include "models/rtl/rtl_source.h"
#include "verilated.h"

namespace gputlm::rtl {

template <class Model>
basic_tb_dispatch_rtl<Model>::basic_tb_dispatch_rtl(std::size_t smxs, std::uint32_t warp_size,
                                                    bool shared_smxs) {
  if (smxs < 1 || smxs > rtl_smxs)
    throw std::invalid_argument(std::to_string(smxs) +
                                " SMXs: the RTL TB dispatch unit serves 1.." +
                                std::to_string(rtl_smxs));
  if (warp_size == 0 || warp_size > max_warp_size || (warp_size & (warp_size - 1)) != 0)
    throw std::invalid_argument("warp size " + std::to_string(warp_size) +
                                ": the RTL TB dispatch unit needs a power of two up to " +
                                std::to_string(max_warp_size));
  unsigned log2 = 0;
  while ((1u << log2) < warp_size) ++log2;
  Model& m = m_rtl.pins();
  m.cfg_smxs = static_cast<std::uint16_t>(smxs);
  m.cfg_warp_log2 = static_cast<std::uint8_t>(log2);
  m.cfg_shared = shared_smxs;
  m.req_valid = 0;
  m.rsp_ready = 0;
  m_rtl.reset();
}

template <class Model>
bool basic_tb_dispatch_rtl<Model>::req_ready() const {
  return m_rtl.pins().req_ready;
}

template <class Model>
std::uint32_t basic_tb_dispatch_rtl<Model>::resident_tbs() const {
  return m_rtl.pins().resident_tbs;
}

template <class Model>
bool basic_tb_dispatch_rtl<Model>::request(std::uint8_t o, std::uint32_t index,
                                           const std::uint64_t* words, std::size_t count,
                                           unsigned hold) {
  Model& m = m_rtl.pins();
  constexpr std::size_t data_words = 5;  // req_data: 320 bits
  for (std::size_t i = 0; i < data_words; ++i) {
    const std::uint64_t w = i < count ? words[i] : 0;
    m.req_data[2 * i] = static_cast<std::uint32_t>(w);
    m.req_data[2 * i + 1] = static_cast<std::uint32_t>(w >> 32);
  }
  m.req_op = o;
  m.req_index = static_cast<std::uint16_t>(index);
  m_rtl.send_request();
  for (unsigned h = 0; h < hold; ++h) {  // the response waits for rsp_ready
    m_rtl.edge();
    m_ready_while_held = m_ready_while_held || m.req_ready;
  }
  const bool found = m.rsp_found;
  m_rsp_smx = m.rsp_smx;
  for (std::size_t i = 0; i < m_rsp_tbcr.size(); ++i)
    m_rsp_tbcr[i] = std::uint64_t(m.rsp_tbcr[2 * i]) | std::uint64_t(m.rsp_tbcr[2 * i + 1]) << 32;
  m_rtl.take_response();
  return found;
}

template <class Model>
void basic_tb_dispatch_rtl<Model>::write_caps(
    std::uint32_t smx, const control::reg_words<control::caps_layout::words>& caps) {
  request(op_caps, smx, caps.data(), caps.size());
}

template <class Model>
void basic_tb_dispatch_rtl<Model>::write_kde(
    std::uint32_t kde, const control::reg_words<control::kde_layout::words>& words) {
  if (kde >= rtl_kdes)
    throw std::invalid_argument("KDE " + std::to_string(kde) +
                                ": the RTL TB dispatch unit holds 0.." +
                                std::to_string(rtl_kdes - 1));
  request(op_kde, kde, words.data(), control::kde_layout::dispatch_words);
}

template <class Model>
bool basic_tb_dispatch_rtl<Model>::dispatch(std::uint32_t& smx,
                                            control::reg_words<control::tbcr_layout::words>& tbcr) {
  if (!request(op_dispatch, 0, nullptr, 0)) return false;
  smx = m_rsp_smx;
  tbcr = m_rsp_tbcr;
  return true;
}

template <class Model>
void basic_tb_dispatch_rtl<Model>::release(
    std::uint32_t smx, const control::reg_words<control::tbcr_layout::words>& tbcr) {
  request(op_release, smx, tbcr.data(), tbcr.size());
}

template <class Model>
void basic_tb_dispatch_rtl<Model>::trace(vcd_writer& vcd, const std::string& group) {
  m_rtl.trace(vcd, group, [] { return clock_domain::now_fs(); });
}

namespace {
template <class T>
std::unique_ptr<control::tb_dispatch_backend> counted(rtl_choice& choice, std::unique_ptr<T> p) {
  choice.count_edges([q = p.get()] { return q->edges(); });
  return p;
}
}  // namespace

std::unique_ptr<control::tb_dispatch_backend> make_tb_dispatch_rtl(rtl_choice& choice,
                                                                   std::size_t smxs,
                                                                   std::uint32_t warp_size,
                                                                   bool shared_smxs) {
  if (choice.build().prefix == "Vtb_dispatch_off_by_one")
    return counted(choice,
                   std::make_unique<tb_dispatch_rtl_off_by_one>(smxs, warp_size, shared_smxs));
  return counted(choice, std::make_unique<tb_dispatch_rtl>(smxs, warp_size, shared_smxs));
}

template class basic_tb_dispatch_rtl<Vtb_dispatch>;
template class basic_tb_dispatch_rtl<Vtb_dispatch_off_by_one>;

}  // namespace gputlm::rtl
