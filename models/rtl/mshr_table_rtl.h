// Transactor for the L1 MSHR table in RTL (rtl/mshr_table/mshr_table.sv, Verilated): the
// C++ mshr_table's operations (models/memory/mshr_table.h) turned into pin activity on the
// RTL's request / response valid-ready channels and read back from its status outputs and
// entry read port (docs/rtl.md). Each operation drives one request and waits for its
// response(s), clocking the model edge by edge; a release takes one response per slot.
// Requesters are kept here as 32-bit handles (the RTL stores handles, not pointers).
// Built for at most `rtl_entries` entries and `rtl_merge` slots each (the Verilated
// storage); a table asking for more is refused at construction. `Model` is the Verilated
// class: Vmshr_table, or Vmshr_table_off_by_one (the same source built with
// MSHR_OFF_BY_ONE, a deliberate bug the tests must catch).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "models/memory/mshr_table.h"
#include "models/rtl/verilated_block.h"

class Vmshr_table;
class Vmshr_table_off_by_one;

namespace gputlm::rtl {

struct mshr_rtl_limits {
  static constexpr std::size_t rtl_entries = 512;  // the Verilated build's ENTRIES
  static constexpr std::size_t rtl_merge = 32;     // and MERGE
};

template <class Model>
class basic_mshr_table_rtl final : public memory::mshr_backend, public mshr_rtl_limits {
 public:
  using slot = memory::mshr_table::slot;
  using entry = memory::mshr_table::entry;

  // Throws std::invalid_argument when entries or merge exceed the RTL's storage.
  basic_mshr_table_rtl(std::size_t entries, std::size_t merge);

  std::size_t capacity() const { return m_entries; }
  std::size_t merge_limit() const { return m_merge; }
  std::size_t used() const override;
  bool full() const;
  std::size_t slots_used() const override;

  int find(std::uint64_t line) override;
  int allocate(std::uint64_t line, std::uint8_t sectors, void* requester, int frame = -1) override;
  bool can_merge(int idx) const { return slot_count(idx) < m_merge; }
  std::size_t slot_count(int idx) const;
  void merge(int idx, void* requester, std::uint8_t sectors, std::uint8_t extra_sectors) override;
  // The entry's fields as the RTL holds them (first_requester included).
  entry at(int idx) const override;
  bool fill_arrived(int idx) override;
  void release(int idx, std::vector<slot>& out) override;
  std::vector<int> order() const;

  // Clock edges the model has run (each operation takes two or more).
  std::uint64_t edges() const { return m_rtl.edges(); }
  void trace(vcd_writer& vcd, const std::string& group) override;

 private:
  enum op : std::uint8_t { op_find, op_allocate, op_merge, op_fill, op_release };
  struct response {
    bool hit = false, last = false;
    int idx = -1;
    std::uint32_t handle = 0;
    std::uint8_t sectors = 0;
  };
  // Drives one request and returns its first response.
  response request(op o, std::uint64_t line, int idx, std::uint8_t sectors, std::uint8_t extra,
                   std::uint32_t handle, std::int32_t frame);
  // A request with one response: drives it, takes the response and returns it.
  response transact(op o, std::uint64_t line, int idx, std::uint8_t sectors, std::uint8_t extra,
                    std::uint32_t handle, std::int32_t frame);
  // Takes the response on the channel (rsp_ready for one edge) and waits for the next one.
  response take_and_next();
  response read_response() const;
  std::uint32_t handle_of(void* requester);
  void* requester_of(std::uint32_t handle);

  std::size_t m_entries, m_merge;
  verilated_block<Model> m_rtl{"mshr_table"};
  std::vector<void*> m_handles;  // handle -> requester
  std::vector<std::uint32_t> m_free_handles;
};

using mshr_table_rtl = basic_mshr_table_rtl<Vmshr_table>;
using mshr_table_rtl_off_by_one = basic_mshr_table_rtl<Vmshr_table_off_by_one>;
extern template class basic_mshr_table_rtl<Vmshr_table>;
extern template class basic_mshr_table_rtl<Vmshr_table_off_by_one>;

class rtl_choice;
// The transactor of the build `choice` names (rtl_source.h: Vmshr_table or its off-by-one
// variant); its clock edges become the owner's statistic (rtl_choice::count_edges).
std::unique_ptr<memory::mshr_backend> make_mshr_table_rtl(rtl_choice& choice, std::size_t entries,
                                                          std::size_t merge);

}  // namespace gputlm::rtl
