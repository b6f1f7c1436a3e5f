// The bank and timing engine of one DRAM channel: per-bank row buffers and timing state,
// channel constraints (command bus, data bus, read/write turnaround, tRRD, tCCD and tCCDL
// within a bank group) and the request queue. Which request a command serves is its
// chooser's decision (dram_chooser.h: FR-FCFS, FCFS, or any registered one); the engine
// issues the command and keeps the timing. At most 64 banks. Times are DRAM command-clock cycles;
// names and derived timings follow GPGPU-Sim's -gpgpu_dram_timing_opt
// (docs/references.md, "DRAM timing options"): tRTW = CL + BL/ratio + 2 - WL,
// tWTR = WL + BL/ratio + tCDLR, write-to-precharge = WL + BL/ratio + tWR, read-to-precharge
// = BL/ratio (tRTPL with bank groups). Each bank knows its oldest queued read and write to
// the open row, and bitmasks say which banks have requests queued, have reads / writes to
// the open row queued, are still inside tRCD; so whether a command can issue, which row hit
// goes and when the next command can issue are answered per bank group and per set bit, and
// the queue is scanned only for a row command's request and, when a bank's oldest row hit
// leaves or a row opens, for the bank's next one. Plain C++, no SystemC, no allocation per
// request.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gputlm::memory {

class dram_chooser;

// A set of banks is a 64-bit mask: bank_bit(b) is bank b's bit; for_each_bank calls f(bank)
// for each set bit, lowest first.
constexpr std::uint64_t bank_bit(std::uint32_t bank) { return std::uint64_t(1) << (bank & 63); }
template <class F>
void for_each_bank(std::uint64_t banks, F f) {
  for (; banks; banks &= banks - 1) f(static_cast<std::uint32_t>(__builtin_ctzll(banks)));
}

struct dram_timing {
  std::uint32_t banks = 16, bank_groups = 1;
  bool bank_group_low_bits = false;  // bank group = bank mod groups (else bank / (banks/groups))
  std::uint32_t tCCD = 2, tRRD = 6, tRCD = 12, tRAS = 28, tRP = 12, tRC = 40, CL = 12, WL = 4,
                tCDLR = 5, tWR = 12, tCCDL = 0, tRTPL = 0;
  std::uint32_t burst_cycles = 2;  // BL / data_rate: data-bus cycles per column access
  bool dual_bus = false;           // row and column commands on separate buses
};

// Who a request is for, as far back as the SMX (copied from the request's mem_request):
// what a criticality-aware chooser ranks by.
struct dram_requester {
  static constexpr std::uint32_t none = 0xffffffffu;
  std::uint32_t smx = none, warp = none, pc = 0;
  std::uint8_t priority = 0;  // set on the way by a mechanism (0: none)
};

class dram_engine {
 public:
  static constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();

  struct request {
    void* tag = nullptr;
    std::uint32_t bank = 0;
    std::uint32_t row = 0;
    bool write = false;
    std::uint32_t bursts = 1;  // column accesses needed
    std::uint64_t arrival = 0;
    dram_requester from{};
  };
  struct completion {
    void* tag;
    std::uint64_t done;           // cycle the last data beat leaves the bus
    bool row_hit;                 // its first column access found the row open
    std::uint64_t first_command;  // cycle of the first command issued for it (queueing ends)
  };

  dram_engine(const dram_timing& t, std::size_t queue_depth);

  bool full() const { return m_live >= m_depth; }
  std::size_t size() const { return m_live; }
  bool empty() const { return m_live == 0; }
  void push(const request& r);

  // Issues what `chooser` picks to issue at cycle `now` (one command, or a row and a column
  // command with a dual bus). Requests whose last column access issued are appended to
  // `done`. Returns the next cycle worth calling again (never when the queue is empty).
  // `now` never decreases from one call to the next.
  std::uint64_t step(std::uint64_t now, std::vector<completion>& done, dram_chooser& chooser);

  // Statistics.
  std::uint64_t activates() const { return m_activates; }
  std::uint64_t precharges() const { return m_precharges; }
  std::uint64_t row_hits() const { return m_row_hits; }  // requests served without ACT
  std::uint64_t row_misses() const { return m_row_misses; }
  std::uint64_t bursts() const { return m_bursts; }
  std::uint64_t busy_bus_cycles() const { return m_bursts * m_t.burst_cycles; }
  std::uint32_t open_row(std::uint32_t bank) const { return m_banks[bank].row; }
  // The oldest request and its bank's state, in words (for reports of runs that stall).
  std::string describe_oldest() const;
  bool is_open(std::uint32_t bank) const { return m_banks[bank].open; }
  // What the last step() issued, for waveforms: the bank of the latest row command (ACT or
  // PRE; activates() + precharges() counts them) and the data-bus cycles [start, end) of the
  // latest column access (bursts() counts them). step() issues at most one of each.
  std::uint32_t last_row_bank() const { return m_last_row_bank; }
  std::uint64_t last_data_start() const { return m_last_data_start; }
  std::uint64_t last_data_end() const { return m_bus_free; }

  // --- What a chooser reads (dram_chooser.h)
  static constexpr std::uint32_t k_none = 0xffffffffu;
  struct entry {
    void* tag = nullptr;
    std::uint32_t bank = 0, row = 0;
    std::uint32_t left = 0;  // column accesses still to issue
    bool write = false;
    bool activated = false;  // needed an ACT (row miss)
    bool started = false;
    bool done = false;  // served: a gap in the queue until it is compacted
    std::uint64_t first_command = never;
    std::uint64_t seq = 0;  // arrival order: increases along the queue
    std::uint32_t bank_next = k_none;  // queue position of the bank's next request
    dram_requester from;
  };
  struct bank_state {
    bool open = false;
    std::uint32_t row = 0;
    std::uint64_t act_at = 0;  // last ACT
    std::uint64_t pre_at = 0;  // last PRE
    std::uint64_t col_ok = 0;  // earliest column command (tRCD)
    std::uint64_t pre_ok = 0;  // earliest PRE (tRAS, read/write to precharge)
    bool ever_activated = false;
    std::uint32_t queued = 0;  // requests in the queue
    // seq of the oldest queued read [0] / write [1] to the open row (never: none), and its
    // position in the queue
    std::uint64_t oldest_hit[2] = {never, never};
    std::uint32_t oldest_at[2] = {0, 0};
    // The bank's requests in age order, linked through entry::bank_next (queue positions;
    // k_none: empty). Served requests leave the list lazily, from its head.
    std::uint32_t head = k_none, tail = k_none;
  };

  // The column-command constraints shared by every request (tCCD, turnarounds, data bus),
  // for a read and for a write; column_ready adds the bank's and its group's.
  struct column_common {
    std::uint64_t read, write;
  };
  column_common column_constraints() const {
    column_common c{std::max(m_col_ok, m_read_ok), std::max(m_col_ok, m_write_ok)};
    if (m_bus_free > m_t.CL) c.read = std::max(c.read, m_bus_free - m_t.CL);
    if (m_bus_free > m_t.WL) c.write = std::max(c.write, m_bus_free - m_t.WL);
    return c;
  }
  std::uint64_t column_ready(const entry& e, const column_common& c) const {
    const bank_state& b = m_banks[e.bank];
    return std::max({b.col_ok, m_group_col_ok[m_group[e.bank]], e.write ? c.write : c.read});
  }
  std::uint64_t row_ready(std::uint32_t bank) const;  // PRE or ACT
  // The queue in age order (served entries are gaps, `done`), from position first().
  const std::vector<entry>& queue() const { return m_queue; }
  std::size_t first() const { return m_first; }
  const bank_state& bank(std::uint32_t b) const { return m_banks[b]; }
  // Bit b for bank b: some request queued; some read (w = 0) or write (1) to the open row
  // queued; the banks whose tRCD may not have passed (settle_tRCD drops those it has).
  std::uint64_t queued_banks() const { return m_queued_banks; }
  std::uint64_t hit_banks(int w) const { return m_hit_banks[w]; }
  std::uint64_t trcd_banks() const { return m_tRCD_banks; }
  void settle_trcd(std::uint64_t now);
  // Bank groups: their count, their banks (bit mask), when they take a column command
  // (tCCDL), and a bank's group.
  std::size_t groups() const { return m_group_banks.size(); }
  std::uint64_t group_banks(std::size_t g) const { return m_group_banks[g]; }
  std::uint64_t group_col_ok(std::size_t g) const { return m_group_col_ok[g]; }
  std::uint32_t group_of_bank(std::uint32_t b) const { return m_group[b]; }

 private:
  std::uint32_t group_of(std::uint32_t bank) const;
  // The bank's oldest read / write to its open row: the first queued one from queue
  // position `from` on (a walk along the bank's own requests).
  void find_oldest_hit(std::uint32_t bank, bool write, std::size_t from);
  // Drops the served entries (gaps) from the queue; positions change.
  void compact();
  // Appends the request at queue position `at` to its bank's list (the youngest there).
  void link_to_bank(std::uint32_t at);
  void update_bank_bits(std::uint32_t bank);  // from the bank's state
  void issue_column(std::size_t i, std::uint64_t now, std::vector<completion>& done);
  void issue_row(entry& e, std::uint64_t now);

  dram_timing m_t;
  std::size_t m_depth;
  // Age order. A served request leaves a gap (entry::done) so that positions stay put;
  // m_first is the first request not served; compact() closes the gaps when they pile up.
  std::vector<entry> m_queue;
  std::size_t m_first = 0;
  std::size_t m_live = 0;  // requests not served
  std::vector<bank_state> m_banks;
  std::vector<std::uint64_t> m_group_col_ok;
  std::vector<std::uint32_t> m_group;        // per bank: its bank group
  std::vector<std::uint64_t> m_group_banks;  // per bank group: its banks
  // Bit b for bank b, following bank_state: some request queued; some read [0] / write [1]
  // to the open row queued; activated and maybe still inside tRCD (every other open bank
  // has passed it).
  std::uint64_t m_queued_banks = 0, m_hit_banks[2] = {0, 0}, m_tRCD_banks = 0;
  std::uint64_t m_seq = 0;       // of the next request pushed
  std::uint64_t m_col_ok = 0;    // tCCD
  std::uint64_t m_act_ok = 0;    // tRRD
  std::uint64_t m_bus_free = 0;  // data bus
  std::uint64_t m_read_ok = 0;   // after writes (tWTR)
  std::uint64_t m_write_ok = 0;  // after reads (tRTW)
  std::uint64_t m_last_cmd = never, m_last_col = never, m_last_row = never;  // command buses
  std::uint64_t m_activates = 0, m_precharges = 0, m_row_hits = 0, m_row_misses = 0, m_bursts = 0;
  std::uint32_t m_last_row_bank = 0;
  std::uint64_t m_last_data_start = 0;
};

}  // namespace gputlm::memory
