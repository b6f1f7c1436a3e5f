// Host memory for long runs: the model's state (80 SMXs' warps and scoreboards, their L1
// tag arrays and MSHRs, the payload pools) is tens of megabytes touched at random, so with
// 4 KiB pages most accesses also miss the host's TLB. Asking the kernel for transparent
// huge pages on the heap before the platform is built removes most of those misses.
// Nothing here changes what is simulated.
#pragma once

namespace gputlm {

// Makes the allocator serve large blocks from the main heap too, reserves heap space
// ahead and advises the kernel to back it with transparent huge pages (MADV_HUGEPAGE).
// Best effort: does nothing where the C library or the kernel does not support it.
void prefer_huge_pages();

}  // namespace gputlm
