// Shared main for tests that elaborate SystemC. ctest runs each TEST in its own process
// (gtest_discover_tests), because SystemC cannot elaborate twice in one process. Any
// SystemC warning, error or fatal report becomes a test failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

namespace {
void report_to_gtest(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (report.get_severity() >= sc_core::SC_WARNING) {
    ADD_FAILURE() << "SystemC " << (report.get_severity() == sc_core::SC_WARNING ? "warning" : "error")
                  << ": " << report.get_msg_type() << ": " << report.get_msg();
  }
  if (actions & sc_core::SC_THROW) throw report;
}
}  // namespace

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  sc_core::sc_report_handler::set_handler(report_to_gtest);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DISPLAY);
  return RUN_ALL_TESTS();
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
