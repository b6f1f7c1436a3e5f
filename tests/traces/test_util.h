// Helpers for the trace front-end tests: scratch directories, file writing, xz/gz
// compression through the libraries, structural comparison of decoded TBs.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "models/base/input_error.h"
#include "traces/trace_reader.h"

namespace gputlm::traces::test {

// A fresh directory for the running test.
inline std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path p = std::filesystem::path(GPUTLM_TEST_TMP) / "traces" /
                            (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::string xz_compress(const std::string& data);
std::string gzip_compress(const std::string& data);

// Runs `fn`, expects an input_error whose message contains every string in `parts`.
inline void expect_input_error(const std::function<void()>& fn,
                               std::initializer_list<std::string> parts) {
  try {
    fn();
  } catch (const input_error& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    for (const std::string& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected input_error, got: " << e.what();
    return;
  }
  ADD_FAILURE() << "expected input_error, nothing thrown";
}

// Kernel header in the reference order; `extra` appended before the format comment.
std::string header(int tracer_version, bool lineinfo, const std::string& grid = "(1,1,1)",
                   const std::string& block = "(32,1,1)", int binary_version = 70);

// A directory `dir` with kernelslist.g naming kernel-1.traceg = `kernel_text`.
std::filesystem::path one_kernel_trace(const std::filesystem::path& dir,
                                       const std::string& kernel_text);

// Structural equality of two decoded TBs (opcode ids compared by mnemonic).
void expect_same_tb(const tb_trace& a, const opcode_table& oa, const tb_trace& b,
                    const opcode_table& ob);
void expect_same_application(application_trace& a, application_trace& b);

}  // namespace gputlm::traces::test
