// Units parse to the values written by hand here, and print back to text that parses to
// the same value.
#include <gtest/gtest.h>

#include "models/base/units.h"

namespace test_units {

using namespace gputlm::units;

TEST(units, bytes) {
  EXPECT_EQ(parse_bytes("16KiB"), 16u * 1024);
  EXPECT_EQ(parse_bytes("16 KiB"), 16u * 1024);
  EXPECT_EQ(parse_bytes("48KB"), 48u * 1024);
  EXPECT_EQ(parse_bytes("4.5MiB"), std::nullopt);  // sizes are whole numbers
  EXPECT_EQ(parse_bytes("128"), 128u);
  EXPECT_EQ(parse_bytes("2GiB"), 2ull << 30);
  EXPECT_EQ(parse_bytes("16 kilobytes"), std::nullopt);
  EXPECT_EQ(parse_bytes("-4KiB"), std::nullopt);
  EXPECT_EQ(format_bytes(98304), "96KiB");
  EXPECT_EQ(format_bytes(100), "100B");
  EXPECT_EQ(format_bytes(3u << 20), "3MiB");
}

TEST(units, frequency_and_time) {
  EXPECT_DOUBLE_EQ(*parse_frequency("700MHz"), 700e6);
  EXPECT_DOUBLE_EQ(*parse_frequency("1.417GHz"), 1.417e9);
  EXPECT_EQ(parse_frequency("700"), std::nullopt);  // a frequency needs its unit
  EXPECT_EQ(parse_frequency("0MHz"), std::nullopt);
  EXPECT_EQ(parse_frequency("700 MHZ"), std::nullopt);
  EXPECT_DOUBLE_EQ(*parse_time("2ns"), 2e-9);
  EXPECT_EQ(format_frequency(700e6), "700MHz");
  EXPECT_EQ(format_frequency(1417e6), "1417MHz");
  EXPECT_EQ(format_frequency(1.5e9), "1500MHz");  // whole numbers in the largest unit
  EXPECT_EQ(format_frequency(2e9), "2GHz");
}

TEST(units, cycles_voltage_power_energy) {
  EXPECT_EQ(parse_cycles("120cycles"), 120u);
  EXPECT_EQ(parse_cycles("120"), 120u);
  EXPECT_EQ(parse_cycles("120ns"), std::nullopt);
  EXPECT_DOUBLE_EQ(*parse_voltage("550mV"), 0.55);
  EXPECT_DOUBLE_EQ(*parse_power("46.4W"), 46.4);
  EXPECT_DOUBLE_EQ(*parse_energy("1.5pJ"), 1.5e-12);
  EXPECT_EQ(parse_bool("yes"), true);
  EXPECT_EQ(parse_bool("off"), false);
  EXPECT_EQ(parse_bool("maybe"), std::nullopt);
  EXPECT_EQ(parse_uint("0x10"), 16u);
  EXPECT_EQ(parse_uint("12abc"), std::nullopt);
}

TEST(units, round_trip) {
  for (double hz : {700e6, 924e6, 1417e6, 706e6, 1.2e9, 850e6, 123456789.0, 1e3})
    EXPECT_EQ(*parse_frequency(format_frequency(hz)), hz) << format_frequency(hz);
  for (double v : {1.0, 0.55, 0.9, 0.3})
    EXPECT_EQ(*parse_voltage(format_voltage(v)), v) << format_voltage(v);
  for (double j : {1.2e-12, 3.5e-9, 0.25})
    EXPECT_EQ(*parse_energy(format_energy(j)), j) << format_energy(j);
  for (std::uint64_t b : {1ull, 128ull, 49152ull, 4718592ull})
    EXPECT_EQ(*parse_bytes(format_bytes(b)), b);
}

}  // namespace test_units
