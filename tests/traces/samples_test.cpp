// The generated samples (traces/samples/*) survive text -> binary -> text unchanged, and
// every opcode in them is known.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_util.h"
#include "traces/trace_cli.h"
#include "traces/trace_reader.h"
#include "traces/trace_writer.h"

namespace gputlm::traces::samples_test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> samples() {
  std::vector<fs::path> out;
  fs::path root = fs::path(GPUTLM_SOURCE_DIR) / "traces" / "samples";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  for (auto& e : fs::directory_iterator(root))
    if (fs::exists(e.path() / "kernelslist.g")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Samples, RoundTripTextBinaryText) {
  auto list = samples();
  if (list.empty()) GTEST_SKIP() << "no traces/samples";
  fs::path root = test::scratch_dir();
  for (const fs::path& s : list) {
    SCOPED_TRACE(s.string());
    std::string name = s.filename().string();
    open_options strict;
    strict.strict = true;  // the generators only emit known opcodes
    auto original = open_trace(s.string(), strict);
    auto bin_writer = make_binary_writer((root / (name + ".gtb")).string());
    copy_trace(*original, *bin_writer);
    auto text_writer = make_text_writer((root / name).string());
    auto bin = open_trace((root / (name + ".gtb")).string(), {});
    copy_trace(*bin, *text_writer);

    auto a = open_trace(s.string(), {});
    auto b = open_trace((root / (name + ".gtb")).string(), {});
    test::expect_same_application(*a, *b);
    auto c = open_trace(s.string(), {});
    auto d = open_trace((root / name).string(), {});
    test::expect_same_application(*c, *d);
    // The samples are written by the text writer, so the round trip is byte for byte.
    for (auto& e : fs::directory_iterator(s))
      EXPECT_EQ(test::read_file(e.path()), test::read_file(root / name / e.path().filename()))
          << e.path();
    EXPECT_LT(fs::file_size(root / (name + ".gtb")), 4 * 1024 * 1024u);
  }
}

}  // namespace
}  // namespace gputlm::traces::samples_test
