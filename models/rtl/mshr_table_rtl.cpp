#include "models/rtl/mshr_table_rtl.h"

#include <algorithm>
#include <string>

#include "Vmshr_table.h"
#include "Vmshr_table_off_by_one.h"
#include "models/common/clock_domain.h"
#include "models/rtl/rtl_source.h"
#include "verilated.h"

namespace gputlm::rtl {

template <class Model>
basic_mshr_table_rtl<Model>::basic_mshr_table_rtl(std::size_t entries, std::size_t merge)
    : m_entries(entries), m_merge(merge) {
  if (entries < 1 || entries > rtl_entries)
    throw std::invalid_argument("mshr_entries " + std::to_string(entries) +
                                ": the RTL MSHR table holds 1.." + std::to_string(rtl_entries));
  if (merge < 1 || merge > rtl_merge)
    throw std::invalid_argument("mshr_merge " + std::to_string(merge) +
                                ": the RTL MSHR table merges 1.." + std::to_string(rtl_merge));
  Model& m = m_rtl.pins();
  m.cfg_entries = static_cast<std::uint16_t>(entries);
  m.req_valid = 0;
  m.rsp_ready = 0;
  m.rd_idx = 0;
  m_rtl.reset();
  m_handles.reserve(entries * merge);
  m_free_handles.reserve(entries * merge);
}

template <class Model>
typename basic_mshr_table_rtl<Model>::response basic_mshr_table_rtl<Model>::read_response() const {
  const Model& m = m_rtl.pins();
  response r;
  r.hit = m.rsp_hit;
  r.last = m.rsp_last;
  r.idx = m.rsp_idx == 0xffff ? -1 : int(m.rsp_idx);
  r.handle = m.rsp_handle;
  r.sectors = static_cast<std::uint8_t>(m.rsp_sectors);
  return r;
}

template <class Model>
typename basic_mshr_table_rtl<Model>::response basic_mshr_table_rtl<Model>::request(
    op o, std::uint64_t line, int idx, std::uint8_t sectors, std::uint8_t extra,
    std::uint32_t handle, std::int32_t frame) {
  Model& m = m_rtl.pins();
  m.req_op = o;
  m.req_line = line;
  m.req_idx = static_cast<std::uint16_t>(idx < 0 ? 0 : idx);
  m.req_sectors = sectors & 0xf;
  m.req_extra = extra & 0xf;
  m.req_handle = handle;
  m.req_frame = static_cast<std::uint32_t>(frame);
  m_rtl.send_request();
  return read_response();
}

template <class Model>
typename basic_mshr_table_rtl<Model>::response basic_mshr_table_rtl<Model>::take_and_next() {
  const Model& m = m_rtl.pins();
  m_rtl.take_response();
  while (!m.rsp_valid && m.busy) m_rtl.edge();
  return read_response();
}

template <class Model>
typename basic_mshr_table_rtl<Model>::response basic_mshr_table_rtl<Model>::transact(
    op o, std::uint64_t line, int idx, std::uint8_t sectors, std::uint8_t extra,
    std::uint32_t handle, std::int32_t frame) {
  const response r = request(o, line, idx, sectors, extra, handle, frame);
  take_and_next();
  return r;
}

template <class Model>
std::uint32_t basic_mshr_table_rtl<Model>::handle_of(void* requester) {
  if (!m_free_handles.empty()) {
    const std::uint32_t h = m_free_handles.back();
    m_free_handles.pop_back();
    m_handles[h] = requester;
    return h;
  }
  m_handles.push_back(requester);
  return static_cast<std::uint32_t>(m_handles.size() - 1);
}

template <class Model>
void* basic_mshr_table_rtl<Model>::requester_of(std::uint32_t handle) {
  void* r = m_handles.at(handle);
  m_free_handles.push_back(handle);
  return r;
}

template <class Model>
std::size_t basic_mshr_table_rtl<Model>::used() const {
  return m_rtl.pins().used;
}
template <class Model>
bool basic_mshr_table_rtl<Model>::full() const {
  return m_rtl.pins().full;
}
template <class Model>
std::size_t basic_mshr_table_rtl<Model>::slots_used() const {
  return m_rtl.pins().slots_used;
}

template <class Model>
std::size_t basic_mshr_table_rtl<Model>::slot_count(int idx) const {
  return at(idx).slots;
}

template <class Model>
typename basic_mshr_table_rtl<Model>::entry basic_mshr_table_rtl<Model>::at(int idx) const {
  Model& m = m_rtl.pins();
  m.rd_idx = static_cast<std::uint16_t>(idx);
  m_rtl.eval();
  entry e;
  e.line = m.rd_line;
  e.slots = m.rd_slots;
  e.pending_sectors = static_cast<std::uint8_t>(m.rd_pending);
  e.frame = static_cast<std::int32_t>(m.rd_frame);
  e.outstanding_fills = m.rd_outstanding;
  e.seq = m.rd_seq;
  // Slot 0 is not on the read port; the first requester and its sectors are what a
  // release would return first (not needed by the caches between misses and fills).
  return e;
}

template <class Model>
int basic_mshr_table_rtl<Model>::find(std::uint64_t line) {
  const response r = transact(op_find, line, 0, 0, 0, 0, 0);
  return r.hit ? r.idx : -1;
}

template <class Model>
int basic_mshr_table_rtl<Model>::allocate(std::uint64_t line, std::uint8_t sectors, void* requester,
                                          int frame) {
  return transact(op_allocate, line, 0, sectors, 0, handle_of(requester), frame).idx;
}

template <class Model>
void basic_mshr_table_rtl<Model>::merge(int idx, void* requester, std::uint8_t sectors,
                                        std::uint8_t extra_sectors) {
  transact(op_merge, 0, idx, sectors, extra_sectors, handle_of(requester), 0);
}

template <class Model>
bool basic_mshr_table_rtl<Model>::fill_arrived(int idx) {
  return transact(op_fill, 0, idx, 0, 0, 0, 0).last;
}

template <class Model>
void basic_mshr_table_rtl<Model>::release(int idx, std::vector<slot>& out) {
  response r = request(op_release, 0, idx, 0, 0, 0, 0);
  for (;;) {
    out.push_back({requester_of(r.handle), r.sectors});
    if (r.last) break;
    r = take_and_next();
  }
  take_and_next();
}

template <class Model>
std::vector<int> basic_mshr_table_rtl<Model>::order() const {
  std::vector<int> live;
  std::vector<std::uint32_t> seq(m_entries);
  for (std::size_t i = 0; i < m_entries; ++i) {
    const entry e = at(static_cast<int>(i));
    if (e.slots == 0) continue;
    live.push_back(static_cast<int>(i));
    seq[i] = e.seq;
  }
  std::sort(live.begin(), live.end(), [&](int a, int b) {
    return static_cast<std::int32_t>(seq[std::size_t(a)] - seq[std::size_t(b)]) < 0;
  });
  return live;
}

template <class Model>
void basic_mshr_table_rtl<Model>::trace(vcd_writer& vcd, const std::string& group) {
  m_rtl.trace(vcd, group, [] { return clock_domain::now_fs(); });
}

namespace {
template <class T>
std::unique_ptr<memory::mshr_backend> counted(rtl_choice& choice, std::unique_ptr<T> p) {
  choice.count_edges([q = p.get()] { return q->edges(); });
  return p;
}
}  // namespace

std::unique_ptr<memory::mshr_backend> make_mshr_table_rtl(rtl_choice& choice, std::size_t entries,
                                                          std::size_t merge) {
  if (choice.build().prefix == "Vmshr_table_off_by_one")
    return counted(choice, std::make_unique<mshr_table_rtl_off_by_one>(entries, merge));
  return counted(choice, std::make_unique<mshr_table_rtl>(entries, merge));
}

template class basic_mshr_table_rtl<Vmshr_table>;
template class basic_mshr_table_rtl<Vmshr_table_off_by_one>;

}  // namespace gputlm::rtl
