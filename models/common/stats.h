// One statistics registry per simulation. Blocks register counters, histograms and
// derived values under their hierarchical name; the registry writes them as JSON (sorted
// keys, so the same run gives byte-identical files) and as a short human summary.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace gputlm {

class counter {
 public:
  counter& operator++() {
    ++m_value;
    return *this;
  }
  counter& operator+=(std::uint64_t n) {
    m_value += n;
    return *this;
  }
  std::uint64_t value() const { return m_value; }
  void reset() { m_value = 0; }

 private:
  std::uint64_t m_value = 0;
};

// Fixed-width buckets [0, w), [w, 2w), ...; the last bucket collects the overflow.
class histogram {
 public:
  histogram(std::uint64_t bucket_width, std::size_t buckets)
      : m_width(bucket_width ? bucket_width : 1), m_counts(buckets ? buckets : 1, 0) {}
  void sample(std::uint64_t v, std::uint64_t weight = 1) {
    std::size_t b = static_cast<std::size_t>(v / m_width);
    if (b >= m_counts.size()) b = m_counts.size() - 1;
    m_counts[b] += weight;
  }
  std::uint64_t bucket_width() const { return m_width; }
  const std::vector<std::uint64_t>& counts() const { return m_counts; }

 private:
  std::uint64_t m_width;
  std::vector<std::uint64_t> m_counts;
};

class stats_registry {
 public:
  struct entry {
    std::string description;
    const counter* count = nullptr;
    const histogram* hist = nullptr;
    std::function<double()> derived;
  };

  void add(const std::string& block, const std::string& name, const counter& c,
           std::string description);
  void add(const std::string& block, const std::string& name, const histogram& h,
           std::string description);
  void add(const std::string& block, const std::string& name, std::function<double()> value,
           std::string description);

  // Top-level figures of the whole run (total_cycles, ipc, ...).
  void set_summary(const std::string& name, double value) { m_summary[name] = value; }
  void set_summary_count(const std::string& name, std::uint64_t value) { m_counts[name] = value; }
  void set_summary_text(const std::string& name, std::string value) {
    m_summary_text[name] = std::move(value);
  }
  // A top-level section given as serialised JSON (e.g. the per-kernel records).
  void set_section_json(const std::string& name, std::string json) {
    m_sections[name] = std::move(json);
  }
  void erase_summary(const std::string& name) {
    m_summary.erase(name);
    m_counts.erase(name);
    m_summary_text.erase(name);
  }

  const std::map<std::string, std::map<std::string, entry>>& blocks() const { return m_blocks; }
  // The blocks' statistics as paths into to_json()'s document: "blocks.<block>.<name>", a
  // histogram as ".bucket_width" and ".counts[*]".
  std::vector<std::string> block_stat_paths() const;

  // JSON: {"<summary keys>": ..., "blocks": {"gpu.smx[0]": {"name": value, ...}, ...}}
  std::string to_json() const;
  void write_summary(std::ostream& os) const;

 private:
  entry& make(const std::string& block, const std::string& name, std::string description);

  std::map<std::string, std::map<std::string, entry>> m_blocks;
  std::map<std::string, double> m_summary;
  std::map<std::string, std::uint64_t> m_counts;
  std::map<std::string, std::string> m_summary_text;
  std::map<std::string, std::string> m_sections;
};

}  // namespace gputlm
