// models/common/mem_request.h: the payload pool that every memory block draws its TLM
// payloads from. Slots are made in chunks that double up to 64 slots; each payload must still be
// its own, carry its mem_request without an extension lookup, keep the host-cache-line alignment
// the layout relies on, and come back for reuse instead of new slots being made.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "models/common/mem_request.h"

namespace test_payload_pool {

using gputlm::mem_request;
using gputlm::payload_pool;

TEST(payload_pool, slots_made_in_chunks_are_distinct_aligned_and_reused) {
  payload_pool pool;
  const std::size_t n = 200;  // chunks of 4, 8, 16, 32, 64 and 64 slots, and into a seventh
  std::vector<tlm::tlm_generic_payload*> held;
  std::set<const void*> seen;
  for (std::size_t i = 0; i < n; ++i) {
    tlm::tlm_generic_payload& gp = pool.acquire(0x1000 + 128 * i, 32, tlm::TLM_READ_COMMAND);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&gp) % 64, 0u) << i;
    EXPECT_TRUE(seen.insert(&gp).second) << "slot handed out twice: " << i;
    EXPECT_EQ(gp.get_address(), 0x1000 + 128 * i);
    EXPECT_EQ(gp.get_data_length(), 32u);
    EXPECT_EQ(gp.get_ref_count(), 1);
    mem_request& r = payload_pool::request(gp);
    EXPECT_EQ(payload_pool::find_request(gp), &r);
    EXPECT_EQ(gp.get_extension<mem_request>(), &r);
    r.warp = static_cast<std::uint32_t>(i);
    held.push_back(&gp);
  }
  EXPECT_EQ(pool.in_use(), n);
  EXPECT_EQ(pool.allocated(), n);
  // Each slot keeps its own request and data buffer.
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(payload_pool::request(*held[i]).warp, i);
    const unsigned char* d = held[i]->get_data_ptr();
    for (std::size_t j = 0; j < n; ++j) {
      if (j != i) {
        EXPECT_NE(d, held[j]->get_data_ptr());
      }
    }
  }
  // Half back through release(), half through the TLM reference count.
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 2)
      pool.release(*held[i]);
    else
      held[i]->release();
  }
  EXPECT_EQ(pool.in_use(), 0u);
  // Reuse: the same slots again, the request reset, no new slot made.
  std::set<const void*> again;
  for (std::size_t i = 0; i < n; ++i) {
    tlm::tlm_generic_payload& gp = pool.acquire(0x9000, 128, tlm::TLM_WRITE_COMMAND);
    EXPECT_EQ(seen.count(&gp), 1u) << i;
    EXPECT_TRUE(again.insert(&gp).second) << i;
    EXPECT_EQ(payload_pool::request(gp).warp, mem_request{}.warp);
    EXPECT_EQ(gp.get_ref_count(), 1);
    EXPECT_TRUE(gp.is_write());
  }
  EXPECT_EQ(pool.allocated(), n);
  EXPECT_EQ(pool.in_use(), n);
  // One more than ever held: a new slot (the pool is destroyed with payloads in flight,
  // which it tolerates).
  tlm::tlm_generic_payload& extra = pool.acquire(0, 4, tlm::TLM_READ_COMMAND);
  EXPECT_EQ(seen.count(&extra), 0u);
  EXPECT_EQ(pool.allocated(), n + 1);
}

TEST(payload_pool, a_foreign_payload_has_no_request) {
  tlm::tlm_generic_payload gp;
  unsigned char buf[8] = {};
  gp.set_data_ptr(buf);
  EXPECT_EQ(payload_pool::find_request(gp), nullptr);
}

}  // namespace test_payload_pool
