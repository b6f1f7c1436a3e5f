// The statistics file's two forms (models/common/stats_forms.h) on hand-made documents: the
// compact text written out by hand for a small full document, the full form recovered value
// for value, and compact documents that are not in the form refused naming the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "models/common/stats_forms.h"

namespace test_stats_forms {

namespace {

using gputlm::full_stats;
using gputlm::stats_form;
using gputlm::stats_text;
using json = nlohmann::json;

// smx[10] sorts before smx[2] as text; smx[2]'s hits differ from the others', the
// histograms of smx[0] and smx[10] are equal and sparse; gpu.l2[0] has a statistic the other
// bank lacks, so the banks are written one by one; one derived value is null.
const char* k_full = R"({
  "total_cycles": 100,
  "blocks": {
    "gpu": {"cycles": 100, "rate": null},
    "gpu.smx[0]": {"hits": 4, "occ": {"bucket_width": 2, "counts": [0, 3, 0, 0, 1]}},
    "gpu.smx[10]": {"hits": 4, "occ": {"bucket_width": 2, "counts": [0, 3, 0, 0, 1]}},
    "gpu.smx[2]": {"hits": 7, "occ": {"bucket_width": 2, "counts": [5, 0, 0, 0, 0]}},
    "gpu.l2[0]": {"accesses": 1, "extra": 2.5},
    "gpu.l2[1]": {"accesses": 1}
  },
  "kernels": [{"name": "k", "tb_log": [[0, 1, 2, 3], [1, 0, 2, 9]]}]
})";

TEST(stats_forms, compact_text_by_hand) {
  const std::string want =
      "{\n"
      " \"blocks\": {\n"
      "  \"gpu\": {\n"
      "   \"cycles\": 100,\n"
      "   \"rate\": null\n"
      "  },\n"
      "  \"gpu.l2[0]\": {\n"
      "   \"accesses\": 1,\n"
      "   \"extra\": 2.5\n"
      "  },\n"
      "  \"gpu.l2[1]\": {\n"
      "   \"accesses\": 1\n"
      "  },\n"
      "  \"gpu.smx[*]\": {\n"
      "   \"instances\": [\"gpu.smx[0]\",\"gpu.smx[2]\",\"gpu.smx[10]\"],\n"
      "   \"hits\": [4,7,4],\n"
      "   \"occ\": [{\"bucket_width\":2,\"buckets\":5,\"nonzero\":[[1,3],[4,1]]},"
      "{\"bucket_width\":2,\"buckets\":5,\"nonzero\":[[0,5]]},"
      "{\"bucket_width\":2,\"buckets\":5,\"nonzero\":[[1,3],[4,1]]}]\n"
      "  }\n"
      " },\n"
      " \"kernels\": [\n"
      "  {\n"
      "   \"name\": \"k\",\n"
      "   \"tb_log\": [\n"
      "    [0,1,2,3],\n"
      "    [1,0,2,9]\n"
      "   ]\n"
      "  }\n"
      " ],\n"
      " \"stats_form\": \"compact\",\n"
      " \"total_cycles\": 100\n"
      "}\n";
  EXPECT_EQ(stats_text(json::parse(k_full), stats_form::compact), want);
}

TEST(stats_forms, equal_values_are_written_once_and_expanded_back) {
  const json full = json::parse(k_full);
  json two = full;  // smx[2] like the others: every statistic written once
  two["blocks"]["gpu.smx[2]"] = full["blocks"]["gpu.smx[0]"];
  const json compact = json::parse(stats_text(two, stats_form::compact));
  EXPECT_EQ(compact["blocks"]["gpu.smx[*]"]["hits"], 4);
  EXPECT_EQ(compact["blocks"]["gpu.smx[*]"]["occ"],
            json::parse(R"({"bucket_width":2,"buckets":5,"nonzero":[[1,3],[4,1]]})"));
  EXPECT_EQ(full_stats(compact), two);
  EXPECT_EQ(full_stats(json::parse(stats_text(full, stats_form::compact))), full);
  // The full form's text is the document's JSON, one value per line.
  EXPECT_EQ(stats_text(full, stats_form::full), full.dump(1) + "\n");
  EXPECT_EQ(full_stats(full), full);  // a full document as it is
}

void expect_refused(const std::string& compact, const std::string& message) {
  try {
    full_stats(json::parse(compact));
    ADD_FAILURE() << "accepted: " << compact;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(stats_forms, malformed_compact_documents_name_the_key) {
  expect_refused(R"({"stats_form": "small"})", "stats_form: expected \"compact\"");
  expect_refused(R"({"stats_form": "compact", "blocks": {"gpu.smx[*]": {"hits": 1}}})",
                 "blocks.gpu.smx[*]: a block type needs \"instances\", a list of block paths");
  expect_refused(
      R"({"stats_form": "compact", "blocks": {"gpu.smx[*]": {"instances": ["gpu.l2[0]"]}}})",
      "blocks.gpu.smx[*].instances: not a path of type gpu.smx[*]: \"gpu.l2[0]\"");
  expect_refused(R"({"stats_form": "compact", "blocks": {"gpu.smx[*]":
                      {"instances": ["gpu.smx[0]"], "occ": {"buckets": 2, "nonzero": [[2, 1]]}}}})",
                 "blocks.gpu.smx[*].occ: bucket 2 of 2");
  expect_refused(R"({"stats_form": "compact", "blocks": {"gpu.smx[*]":
                      {"instances": ["gpu.smx[0]", "gpu.smx[1]"], "hits": [1]}}})",
                 "blocks.gpu.smx[*].hits: expected 2 values (one per instance), found 1");
  expect_refused(R"({"stats_form": "compact", "blocks": {"gpu.smx[*]":
                      {"instances": ["gpu.smx[0]"]}, "gpu.smx[0]": {"hits": 1}}})",
                 "blocks.gpu.smx[0]: block gpu.smx[0] twice");
}

}  // namespace

}  // namespace test_stats_forms
