// The SPU runtime's plan of passes (models/spu/pass_plan.h) against the thesis's worked
// example (4 x 4 CTAs of 4 tiles on a 2 x 2 SPU, Figs 4.1-4.3; docs/references.md,
// "SPU runtime and sync": pass order, placement, VIU roles, spills and restores worked by
// hand) and its off-chip identity, Eq 3.8
// (4N^3/(pb) + 2N^2 elements, computed here from the formula: 98,304 at N = 128 and
// 655,360 at N = 256 for p = 4, b = 32), with its generalisation to partial passes
// (N = 320: 2N^2 + 2NK(Pc + Pr)); the grid's counts for p = 2, 4, 8 (Eq 5.1).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "models/spu/pass_plan.h"

namespace test_pass_plan {

using gputlm::spu::counts_of;
using gputlm::spu::iu_role;
using gputlm::spu::pass_plan;
using gputlm::spu::side;
using cta = pass_plan::cta;
constexpr auto pairwise = pass_plan::sync_mode::pairwise;
constexpr auto global = pass_plan::sync_mode::global;

TEST(pass_plan, toy_example_pass_order_and_placement) {
  const pass_plan plan(2, 4, 4, 4);
  ASSERT_EQ(plan.passes().size(), 4u);
  const std::uint32_t order[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};  // row-wise
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(plan.passes()[i].x, order[i][0]);
    EXPECT_EQ(plan.passes()[i].y, order[i][1]);
    EXPECT_EQ(plan.passes()[i].cols, 2u);
    EXPECT_EQ(plan.passes()[i].rows, 2u);
  }
  EXPECT_EQ(plan.sm_of({3, 2}), 1u);  // SM (1, 0)
  EXPECT_EQ(plan.sm_of({2, 3}), 2u);  // SM (0, 1)
  EXPECT_EQ(plan.pass_index({3, 2}), 3u);
  EXPECT_EQ(plan.queue_of(0), (std::vector<cta>{{0, 0}, {2, 0}, {0, 2}, {2, 2}}));
  EXPECT_EQ(plan.queue_of(3), (std::vector<cta>{{1, 1}, {3, 1}, {1, 3}, {3, 3}}));
  EXPECT_EQ(plan.ctas_of(1), (std::vector<cta>{{2, 0}, {3, 0}, {2, 1}, {3, 1}}));
  EXPECT_EQ(plan.global_barriers(), 10u);  // t = 0..9 per pass (Algorithm 1)
}

TEST(pass_plan, toy_example_viu_roles_spills_and_restores) {
  const pass_plan plan(2, 4, 4, 4);
  // Pass (0,0): loads from the west and north, spills to the east and south.
  EXPECT_EQ(plan.role(0, side::west, 1), iu_role::load);
  EXPECT_EQ(plan.role(0, side::north, 0), iu_role::load);
  EXPECT_EQ(plan.role(0, side::east, 0), iu_role::spill);
  EXPECT_EQ(plan.role(0, side::south, 1), iu_role::spill);
  // Pass (1,0): the west IUs restore what pass (0,0) spilled east; east stores.
  EXPECT_EQ(plan.role(1, side::west, 0), iu_role::restore);
  EXPECT_EQ(plan.role(1, side::east, 0), iu_role::store);
  EXPECT_EQ(plan.role(1, side::south, 0), iu_role::spill);
  // Pass (1,1): restores on both input sides, stores on both output sides.
  EXPECT_EQ(plan.role(3, side::west, 0), iu_role::restore);
  EXPECT_EQ(plan.role(3, side::north, 1), iu_role::restore);
  EXPECT_EQ(plan.role(3, side::east, 1), iu_role::store);
  EXPECT_EQ(plan.role(3, side::south, 0), iu_role::store);
  // Pairwise sync: one face per tile per border lane. By hand: pass (0,0) spills 2 lanes x
  // 4 tiles east and south = 16; (1,0) and (0,1) 8 each; (1,1) none. Restores mirror them.
  const std::uint64_t spills[4] = {16, 8, 8, 0}, restores[4] = {0, 8, 8, 16};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(plan.spills(i, pairwise), spills[i]) << i;
    EXPECT_EQ(plan.restores(i, pairwise), restores[i]) << i;
  }
  EXPECT_EQ(plan.total_spills(pairwise), 32u);
  EXPECT_EQ(plan.total_restores(pairwise), 32u);
  // Global sync: a VIU moves a face at each of the 10 barriers.
  EXPECT_EQ(plan.spills(0, global), 2u * 2 * 10);
  EXPECT_EQ(plan.total_spills(global), 80u);
  // Eq 3.8 with N = 4b, p = 2, in faces of b^2: 4 (4b)^3 / (2b) / b^2 + 2 (4b)^2 / b^2 = 160;
  // the spill-restore part, Eq 3.9: 4N^3/(pb) - 4N^2 = 64 faces.
  EXPECT_EQ(plan.off_chip_faces(pairwise), 160u);
  EXPECT_EQ(plan.total_spills(pairwise) + plan.total_restores(pairwise), 64u);
}

TEST(pass_plan, off_chip_identity_of_the_thesis) {
  for (std::uint64_t n : {128u, 256u}) {
    const std::uint64_t p = 4, b = 32;
    const pass_plan plan(4, std::uint32_t(n / b), std::uint32_t(n / b), std::uint32_t(n / b));
    const std::uint64_t eq38 = 4 * n * n * n / (p * b) + 2 * n * n;
    EXPECT_EQ(plan.off_chip_faces(pairwise) * b * b, eq38) << n;
  }
  EXPECT_EQ(pass_plan(4, 4, 4, 4).off_chip_faces(pairwise) * 1024, 98304u);
  EXPECT_EQ(pass_plan(4, 8, 8, 8).off_chip_faces(pairwise) * 1024, 655360u);
}

TEST(pass_plan, partial_passes_give_their_border_to_sms) {
  // N = 320, b = 32: 10 x 10 CTAs on a 4 x 4 SPU: 3 x 3 passes, the last column and row of
  // passes 2 CTAs wide.
  const pass_plan plan(4, 10, 10, 10);
  ASSERT_EQ(plan.passes().size(), 9u);
  const auto& edge = plan.passes()[2];  // pass (2, 0)
  EXPECT_EQ(edge.cols, 2u);
  EXPECT_EQ(edge.rows, 4u);
  EXPECT_EQ(plan.role(2, side::north, 1), iu_role::load);
  EXPECT_EQ(plan.role(2, side::north, 2), iu_role::idle);  // no CTA under it
  EXPECT_EQ(plan.role(2, side::east, 3), iu_role::store);
  const pass_plan::unit u = plan.unit_of(2, side::east, 3);
  EXPECT_TRUE(u.is_sm);  // SM column 2 stores the pass's east faces
  EXPECT_EQ(u.x, 2u);
  EXPECT_EQ(u.y, 3u);
  EXPECT_FALSE(plan.unit_of(0, side::east, 3).is_sm);
  EXPECT_EQ(plan.queue_of(15).size(), 4u);  // SM (3,3): only the full passes
  // The generalised identity: 2N^2 + 2NK (Pc + Pr), Pc = Pr = ceil(N / pb) = 3.
  const std::uint64_t n = 320;
  EXPECT_EQ(plan.off_chip_faces(pairwise) * 1024, 2 * n * n + 2 * n * n * 6);
}

TEST(pass_plan, grid_counts_for_any_p) {
  EXPECT_EQ(counts_of(2).sms, 4u);
  EXPECT_EQ(counts_of(2).ius, 8u);
  EXPECT_EQ(counts_of(2).links, 12u);
  EXPECT_EQ(counts_of(2).buffers, 24u);
  EXPECT_EQ(counts_of(4).links, 40u);
  EXPECT_EQ(counts_of(4).buffers, 80u);  // Eq 5.1: 4 x 16 + 1 x 16
  EXPECT_EQ(counts_of(4).buffers, 4 * counts_of(4).sms + counts_of(4).ius);
  EXPECT_EQ(counts_of(8).sms, 64u);
  EXPECT_EQ(counts_of(8).ius, 32u);
  EXPECT_EQ(counts_of(8).links, 144u);
  EXPECT_EQ(counts_of(8).buffers, 288u);
}

TEST(pass_plan, grids_it_cannot_map_are_refused) {
  EXPECT_THROW(pass_plan(1, 4, 4, 4), std::invalid_argument);
  EXPECT_THROW(pass_plan(4, 0, 4, 4), std::invalid_argument);
  EXPECT_THROW(pass_plan(4, 4, 4, 0), std::invalid_argument);
}

}  // namespace test_pass_plan
