// The SystemC testbench of the RTL blocks' unit tests: a thread on a 1 GHz clock runs the
// test's body, which waits for the next rising edge (cycle()) between the operations it
// issues to a transactor, so that every operation happens at its cycle's simulated time
// (the RTL's waveform is written in that time base). One elaboration per test process.
#pragma once

#include <functional>
#include <systemc>
#include <utility>

namespace gputlm::testing {

struct rtl_testbench : sc_core::sc_module {
  SC_HAS_PROCESS(rtl_testbench);
  sc_core::sc_clock clk{"clk", sc_core::sc_time(1, sc_core::SC_NS)};
  std::function<void(rtl_testbench&)> body;
  rtl_testbench(const sc_core::sc_module_name& name, std::function<void(rtl_testbench&)> b)
      : sc_core::sc_module(name), body(std::move(b)) {
    SC_THREAD(run);
  }
  void cycle() { wait(clk.posedge_event()); }
  void run() {
    body(*this);
    sc_core::sc_stop();
  }
};

// Elaborates the testbench and runs `body` to its end.
inline void run_testbench(std::function<void(rtl_testbench&)> body) {
  rtl_testbench tb("testbench", std::move(body));
  sc_core::sc_start();
}

}  // namespace gputlm::testing
