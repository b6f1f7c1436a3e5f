// Parsing and printing of values with units, as written in platform YAML and --set:
// sizes (16KiB), frequencies (700MHz), times (2ns), cycle counts (120cycles),
// voltages (0.9V), power (46.4W) and energy (1.2pJ). One small converter for all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gputlm::units {

// Each parser returns nullopt when the text is not a valid value of that kind; the caller
// reports the error with the value's source location.
std::optional<std::uint64_t> parse_bytes(std::string_view text);      // B, KiB/KB, MiB/MB, GiB/GB (binary)
std::optional<double> parse_frequency(std::string_view text);          // Hz, kHz, MHz, GHz -> Hz
std::optional<double> parse_time(std::string_view text);               // s, ms, us, ns, ps -> seconds
std::optional<std::uint64_t> parse_cycles(std::string_view text);      // N or Ncycles
std::optional<double> parse_voltage(std::string_view text);            // V, mV -> volts
std::optional<double> parse_power(std::string_view text);              // W, mW, uW -> watts
std::optional<double> parse_energy(std::string_view text);             // J, mJ, uJ, nJ, pJ, fJ -> joules
std::optional<std::uint64_t> parse_uint(std::string_view text);        // decimal or 0x hex
std::optional<std::int64_t> parse_int(std::string_view text);
std::optional<double> parse_double(std::string_view text);
std::optional<bool> parse_bool(std::string_view text);                 // true/false/yes/no/on/off

// Printers produce the canonical text the parsers read back exactly (round trip).
std::string format_bytes(std::uint64_t bytes);   // largest exact binary unit: 16KiB, 96KiB, 100B
std::string format_frequency(double hz);         // 700MHz, 1417MHz, 1.5GHz
std::string format_time(double seconds);         // 2ns, 1.5us
std::string format_cycles(std::uint64_t cycles); // 120cycles
std::string format_voltage(double volts);        // 1V, 0.55V
std::string format_power(double watts);          // 46.4W, 283mW
std::string format_energy(double joules);        // 1.2pJ
std::string format_double(double v);             // shortest text that reads back exactly

}  // namespace gputlm::units
