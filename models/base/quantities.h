// Typed physical quantities used by block parameters. Each is a thin wrapper so that a
// parameter's type says which unit its YAML value carries (16KiB, 700MHz, 120cycles...).
#pragma once

#include <cstdint>

namespace gputlm {

struct bytes {
  std::uint64_t value = 0;
  constexpr operator std::uint64_t() const { return value; }
};

struct cycles {
  // The largest latency a block accepts as a parameter: latencies near 2^64 cycles would
  // overflow simulated time (the run would never end).
  static constexpr std::uint64_t max_latency = std::uint64_t(1) << 32;
  std::uint64_t value = 0;
  constexpr operator std::uint64_t() const { return value; }
};

struct frequency {
  double hz = 0;
};

struct duration {
  double seconds = 0;
};

struct voltage {
  double volts = 0;
};

struct power {
  double watts = 0;
};

struct energy {
  double joules = 0;
};

}  // namespace gputlm
