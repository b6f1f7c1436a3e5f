// AddressSanitizer and SystemC's coroutines (sanitizer builds only, GPUTLM_SANITIZE with
// GCC; linked into every program of such a build).
//
// Debian's SystemC 2.3.4 (QuickThreads coroutines) tells ASan of each stack switch through
// __sanitizer_start_switch_fiber, but names the main coroutine's stack as (nullptr, 0): it
// does not know it. After the first switch back from a thread process, ASan believes the
// main program runs on an empty stack, ignores __asan_handle_no_return when an exception is
// thrown there ("ASan is ignoring requested __asan_handle_no_return"), leaves the unwound
// frames' redzones poisoned and reports a false stack-buffer-overflow at the catch: an
// input error found after the simulation started (a truncated trace) ended with an ASan
// report and exit 1 instead of its one-line message and exit 2.
//
// This definition comes before the sanitizer runtime's in the dynamic symbol lookup (the
// program first), fills in the main thread's stack when SystemC passes none, and calls the
// runtime's own. Real findings are untouched: only the stack bounds ASan is given change.
#if defined(__SANITIZE_ADDRESS__)

#include <dlfcn.h>
#include <pthread.h>

#include <cstddef>

namespace {

using switch_fn = void (*)(void**, const void*, std::size_t);

struct main_stack {
  const void* bottom = nullptr;
  std::size_t size = 0;
  main_stack() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* addr = nullptr;
    std::size_t n = 0;
    if (pthread_attr_getstack(&attr, &addr, &n) == 0) {
      bottom = addr;
      size = n;
    }
    pthread_attr_destroy(&attr);
  }
};

// Taken while static initialisers run on the main thread, before any coroutine exists.
const main_stack g_main_stack;

}  // namespace

extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom,
                                               std::size_t size) {
  static const switch_fn runtime =
      reinterpret_cast<switch_fn>(dlsym(RTLD_NEXT, "__sanitizer_start_switch_fiber"));
  if (bottom == nullptr && size == 0) {  // SystemC switching back to its main coroutine
    bottom = g_main_stack.bottom;
    size = g_main_stack.size;
  }
  if (runtime) runtime(fake_stack_save, bottom, size);
}

#endif
