// A FIFO on a ring buffer that grows only when it outgrows its capacity (then keeps the
// larger size), so steady-state traffic allocates nothing. Capacities are powers of two. Used for the queues of the
// memory blocks; the blocks enforce the hardware depths themselves.
#pragma once

#include <cstddef>
#include <vector>

namespace gputlm::memory {

template <typename T>
class fifo {
 public:
  explicit fifo(std::size_t reserve = 8) : m_buf(round_up(reserve)), m_mask(m_buf.size() - 1) {}
  bool empty() const { return m_size == 0; }
  std::size_t size() const { return m_size; }
  T& front() { return m_buf[m_head]; }
  const T& front() const { return m_buf[m_head]; }
  T& operator[](std::size_t i) { return m_buf[(m_head + i) & m_mask]; }
  const T& operator[](std::size_t i) const { return m_buf[(m_head + i) & m_mask]; }
  void push(const T& v) {
    if (m_size == m_buf.size()) grow();
    m_buf[(m_head + m_size) & m_mask] = v;
    ++m_size;
  }
  void pop() {
    m_head = (m_head + 1) & m_mask;
    // Emptied: start again at the front, so that a queue that drains often keeps using the
    // same few host cache lines instead of walking its whole ring.
    if (--m_size == 0) m_head = 0;
  }
  // Removes element i (order kept).
  void erase(std::size_t i) {
    for (std::size_t k = i; k + 1 < m_size; ++k) (*this)[k] = (*this)[k + 1];
    --m_size;
  }

 private:
  void grow() {
    std::vector<T> n(m_buf.size() * 2);
    for (std::size_t i = 0; i < m_size; ++i) n[i] = (*this)[i];
    m_buf.swap(n);
    m_mask = m_buf.size() - 1;
    m_head = 0;
  }
  // Capacities are powers of two, so that wrapping is a mask, not a division.
  static std::size_t round_up(std::size_t n) {
    std::size_t c = 1;
    while (c < n) c <<= 1;
    return c;
  }
  std::vector<T> m_buf;
  std::size_t m_mask;
  std::size_t m_head = 0;
  std::size_t m_size = 0;
};

}  // namespace gputlm::memory
