// `make install`: the install rules staged with DESTDIR, then the installed gputlm run from
// another folder on a shipped experiment (its platforms, sample traces and plot script all
// found in the installed tree), and the installed Python package imported.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/common/run_command.h"

namespace test_install {

namespace {

namespace fs = std::filesystem;
using gputlm::testing::run_command;
using gputlm::testing::slurp;

TEST(install, the_installed_tree_runs_a_shipped_experiment_from_elsewhere) {
  const fs::path tmp = fs::path(GPUTLM_TEST_TMP) / "install";
  fs::remove_all(tmp);
  fs::create_directories(tmp / "elsewhere");
  const fs::path prefix = "/opt/gputlm-test";
  const fs::path stage = tmp / "stage";
  const auto inst = run_command("DESTDIR=" + stage.string() + " " + GPUTLM_CMAKE + " --install " +
                                    GPUTLM_BINARY_DIR + " --prefix " + prefix.string(),
                                "install_rules");
  ASSERT_EQ(inst.status, 0) << inst.err;
  const fs::path root = stage / prefix.relative_path();
  const fs::path bin = root / "bin" / "gputlm";
  const fs::path share = root / "share" / "gputlm";
  ASSERT_TRUE(fs::exists(bin));
  for (const char* f :
       {"yaml/volta.yaml", "yaml/experiments/demo.yaml", "traces/samples/vectoradd/kernelslist.g",
        "scripts/plot-experiment.py", "python/gputlm/plots.py", "rtl/mshr_table/mshr_table.sv"})
    EXPECT_TRUE(fs::exists(share / f)) << f;

  // The shipped demo experiment, from another folder, through the installed binary: its
  // platforms (../volta.yaml) and sample traces (../../traces/samples) resolve in share/,
  // and the plots are drawn by the installed script.
  const fs::path out = tmp / "demo-out";
  const auto run =
      run_command("cd " + (tmp / "elsewhere").string() + " && " + bin.string() + " experiment " +
                      (share / "yaml/experiments/demo.yaml").string() + " -j 2 -o " + out.string(),
                  "install_demo");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err.find("plots not made"), std::string::npos) << run.err;
  const std::string report = slurp((out / "report.md").string());
  EXPECT_NE(report.find("](plots/"), std::string::npos) << report.substr(0, 400);
  EXPECT_TRUE(fs::exists(out / "results.csv"));

  // The Python package, where the install put it for python3.
  const auto py = run_command(
      "/usr/bin/python3 -c \"import glob, sys; sys.path.insert(0, glob.glob('" + root.string() +
          "/lib/python3*/dist-packages')[0]); import gputlm.stats, gputlm.results; "
          "print(gputlm.results.__file__)\"",
      "install_python");
  ASSERT_EQ(py.status, 0) << py.err;
  EXPECT_NE(py.out.find(root.string()), std::string::npos) << py.out;
}

}  // namespace

}  // namespace test_install
