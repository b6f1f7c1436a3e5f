// Items due at cycles, taken in cycle order and, within a cycle, in the order they were
// pushed: what a min-heap on (cycle, push sequence) gives, for the many near-future events
// of a block (packets moving through the crossbar). A wheel of `window` buckets holds the
// items due within `window` cycles of the base (a FIFO per cycle and a bitmap of the
// non-empty ones), a heap the rest; both keep their storage once grown. The base is the
// last cycle taken up to; the heap's items move into the wheel as it comes within reach,
// before any item pushed for the same cycle later, so the order is the heap's.
// Plain C++, no SystemC.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/common/ring_bitmap.h"

namespace gputlm {

template <class T>
class timed_queue {
 public:
  static constexpr std::uint64_t never = ~std::uint64_t(0);
  static constexpr std::uint64_t window = 256;  // cycles the wheel covers (a power of two)

  timed_queue() : m_buckets(window) {
    // Room for a few items per cycle from the start, instead of each bucket growing from
    // nothing while a run warms up.
    for (bucket& b : m_buckets) b.items.reserve(4);
  }

  bool empty() const { return m_size == 0; }
  std::size_t size() const { return m_size; }

  // Adds `v`, due at cycle `at` (not before the last cycle taken up to).
  void push(std::uint64_t at, const T& v) {
    if (at < m_base) at = m_base;  // (not expected: due already, taken with the next call)
    ++m_size;
    if (at - m_base >= window) {
      m_far.push_back({at, m_seq++, v});
      std::push_heap(m_far.begin(), m_far.end(), later{});
      return;
    }
    const std::size_t b = static_cast<std::size_t>(at % window);
    m_buckets[b].items.push_back(v);
    m_busy.set(b);
  }

  // The earliest cycle with an item, or never.
  std::uint64_t next() const {
    if (m_size == 0) return never;
    const std::uint64_t c = first_busy();
    return c != never ? c : m_far.front().at;
  }

  // Takes the first item due at or before `now` into `out`; false when there is none, and
  // then the base moves up to `now` (`now` never decreases from one call to the next).
  bool take_due(std::uint64_t now, T& out) {
    const std::uint64_t c = m_size ? next() : never;
    if (c == never || c > now) {
      advance(now);
      return false;
    }
    if (c - m_base >= window) advance(c);  // only far items left: bring them in
    const std::size_t b = static_cast<std::size_t>(c % window);
    bucket& q = m_buckets[b];
    out = q.items[q.head++];
    if (q.head == q.items.size()) {
      q.items.clear();
      q.head = 0;
      m_busy.clear(b);
    }
    --m_size;
    return true;
  }

 private:
  struct bucket {
    std::vector<T> items;
    std::size_t head = 0;
  };
  struct far_item {
    std::uint64_t at;
    std::uint64_t seq;
    T v;
  };
  struct later {
    bool operator()(const far_item& a, const far_item& b) const {
      return a.at != b.at ? a.at > b.at : a.seq > b.seq;
    }
  };

  // The earliest cycle of the wheel with an item, or never.
  std::uint64_t first_busy() const {
    const std::uint64_t k = m_busy.first_from(m_base % window);
    return k < window ? m_base + k : never;
  }
  // Moves the base up to `to` (every wheel item is due at or after it) and brings in the
  // heap's items that come within reach, in their order.
  void advance(std::uint64_t to) {
    if (to <= m_base) return;
    m_base = to;
    while (!m_far.empty() && m_far.front().at - m_base < window) {
      std::pop_heap(m_far.begin(), m_far.end(), later{});
      const far_item f = m_far.back();
      m_far.pop_back();
      const std::size_t b = static_cast<std::size_t>(f.at % window);
      m_buckets[b].items.push_back(f.v);
      m_busy.set(b);
    }
  }

  std::vector<bucket> m_buckets;
  ring_bitmap<window> m_busy;  // buckets with items
  std::vector<far_item> m_far;  // min-heap by (at, seq)
  std::uint64_t m_base = 0;
  std::uint64_t m_seq = 0;
  std::size_t m_size = 0;
};

}  // namespace gputlm
