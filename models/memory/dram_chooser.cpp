// The FR-FCFS and FCFS request choosers (dram_chooser.h).
#include "models/memory/dram_chooser.h"

#include <algorithm>

namespace gputlm::memory {
namespace {

constexpr std::uint64_t never = dram_engine::never;

// FR-FCFS, by bank: timing depends on a request's bank and kind only, so the engine's bank
// bitmasks answer which row hits may go now and which banks' row commands may.
class fr_fcfs final : public dram_chooser {
 public:
  using dram_chooser::dram_chooser;

  std::size_t column(dram_engine& e, const dram_engine::column_common& c,
                     std::uint64_t now) override {
    // The banks whose reads [0] / writes [1] to the open row may take a column command now:
    // past their group's tCCDL and their own tRCD. The oldest hit among them goes.
    e.settle_trcd(now);
    std::uint64_t banks = 0;
    for (std::size_t g = 0; g < e.groups(); ++g)
      if (e.group_col_ok(g) <= now) banks |= e.group_banks(g);
    banks &= ~e.trcd_banks();
    const std::uint64_t ready[2] = {c.read <= now ? e.hit_banks(0) & banks : 0,
                                    c.write <= now ? e.hit_banks(1) & banks : 0};
    std::uint64_t oldest = never;
    std::size_t at = none;
    for (int w = 0; w < 2; ++w)
      for_each_bank(ready[w], [&](std::uint32_t b) {
        if (e.bank(b).oldest_hit[w] < oldest) {
          oldest = e.bank(b).oldest_hit[w];
          at = e.bank(b).oldest_at[w];
        }
      });
    return at;
  }

  std::size_t row(dram_engine& e, std::uint64_t now) override {
    // A bank's first queued request needs a row command when the bank has no hits queued;
    // the first queued request of a ready bank is the oldest one that may go.
    std::uint64_t ready = 0;
    for_each_bank(e.queued_banks() & ~(e.hit_banks(0) | e.hit_banks(1)), [&](std::uint32_t b) {
      if (e.row_ready(b) <= now) ready |= bank_bit(b);
    });
    if (!ready) return none;
    const auto& q = e.queue();
    for (std::size_t i = e.first(); i < q.size(); ++i)
      if (!q[i].done && (ready & bank_bit(q[i].bank))) return i;
    return none;
  }

  std::uint64_t next_ready(const dram_engine& e, const dram_engine::column_common& c,
                           std::uint64_t now) override {
    // Nothing is asked for before now + 1, so the search stops once that is found.
    const std::uint64_t soon = now + 1;
    std::uint64_t next = never;
    const std::uint64_t reads = e.hit_banks(0), writes = e.hit_banks(1);
    // The kind constraint of banks: reads' or writes', whichever is earlier among their hits.
    auto kind = [&](std::uint64_t banks) {
      return std::min(reads & banks ? c.read : never, writes & banks ? c.write : never);
    };
    // Row hits: the later of the bank's tRCD, its group's tCCDL and the read or write
    // constraint. Banks outside the tRCD set passed tRCD by now, so they depend only on their
    // group: each group counts once.
    const std::uint64_t settled = ~e.trcd_banks();
    for (std::size_t g = 0; g < e.groups(); ++g) {
      next = std::min(next, std::max(e.group_col_ok(g), kind(e.group_banks(g) & settled)));
      if (next <= soon) return soon;
    }
    for_each_bank(e.trcd_banks() & (reads | writes), [&](std::uint32_t b) {
      next = std::min(next, std::max({e.bank(b).col_ok, e.group_col_ok(e.group_of_bank(b)),
                                      kind(bank_bit(b))}));
    });
    // Banks without hits: the row command of their first request.
    for_each_bank(e.queued_banks() & ~(reads | writes),
                  [&](std::uint32_t b) { next = std::min(next, e.row_ready(b)); });
    return std::max(next, soon);
  }
};

// FCFS: the oldest request only.
class fcfs final : public dram_chooser {
 public:
  using dram_chooser::dram_chooser;

  std::size_t column(dram_engine& e, const dram_engine::column_common& c,
                     std::uint64_t now) override {
    const dram_engine::entry& x = e.queue()[e.first()];
    const dram_engine::bank_state& b = e.bank(x.bank);
    return b.open && b.row == x.row && e.column_ready(x, c) <= now ? e.first() : none;
  }

  std::size_t row(dram_engine& e, std::uint64_t now) override {
    bool hit = false;
    const std::size_t i = head(e, &hit);
    return i != none && !hit && e.row_ready(e.queue()[i].bank) <= now ? i : none;
  }

  std::uint64_t next_ready(const dram_engine& e, const dram_engine::column_common& c,
                           std::uint64_t now) override {
    // The oldest request that can be next (a row command waits for older requests to its
    // bank).
    bool hit = false;
    const std::size_t i = head(e, &hit);
    const std::uint64_t next = i == none ? never
                               : hit     ? e.column_ready(e.queue()[i], c)
                                         : e.row_ready(e.queue()[i].bank);
    return std::max(next, now + 1);
  }

 private:
  // The request FCFS may serve next: scanning from the oldest, the first row hit (`hit`),
  // or before it the first request no older request's bank blocks (younger hits to its open
  // row wait their turn: they do not hold the row open); none when there is neither.
  static std::size_t head(const dram_engine& e, bool* hit) {
    std::uint64_t seen = 0;  // banks with an older request
    const auto& q = e.queue();
    for (std::size_t i = e.first(); i < q.size(); ++i) {
      const dram_engine::entry& x = q[i];
      if (x.done) continue;
      const dram_engine::bank_state& b = e.bank(x.bank);
      const bool older = seen & bank_bit(x.bank);
      seen |= bank_bit(x.bank);
      *hit = b.open && b.row == x.row;
      if (*hit || !older) return i;
    }
    return none;
  }
};

GPUTLM_STRATEGY(dram_chooser, "fr_fcfs", fr_fcfs,
                "first-ready FCFS: the oldest ready row hit, else the oldest row command");
GPUTLM_STRATEGY(dram_chooser, "fcfs", fcfs, "first come, first served: the oldest request only");

}  // namespace
}  // namespace gputlm::memory
