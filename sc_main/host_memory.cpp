#include "sc_main/host_memory.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace gputlm {

void prefer_huge_pages() {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  constexpr std::size_t reserve = std::size_t(512) << 20;  // address space, not memory
  constexpr std::uintptr_t huge = std::uintptr_t(2) << 20;
  // The main thread's blocks of any size come from the heap (not one mapping each); it
  // grows in steps of `reserve` and is not trimmed back: one region to advise. (The trace
  // reader's thread keeps its own arena: sharing the heap's lock with it costs more than
  // huge pages for its blocks save.)
  if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) || !mallopt(M_TOP_PAD, static_cast<int>(reserve)) ||
      !mallopt(M_TRIM_THRESHOLD, static_cast<int>(reserve)))
    return;
  const auto low = reinterpret_cast<std::uintptr_t>(sbrk(0));
  // More than the heap has free: it grows by this and the reserve, untouched so far.
  // (Through a volatile pointer: the compiler may drop a malloc whose block is unused.)
  void* volatile block = std::malloc(std::size_t(16) << 20);
  std::free(block);
  const auto high = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t from = (low + huge - 1) & ~(huge - 1);
  if (high > from) madvise(reinterpret_cast<void*>(from), high - from, MADV_HUGEPAGE);
#endif
}

}  // namespace gputlm
