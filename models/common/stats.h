// One statistics registry per simulation. Blocks register counters, histograms and
// derived values under their hierarchical name; the registry writes them as JSON (sorted
// keys, so the same run gives byte-identical files) and as a short human summary.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <nlohmann/json_fwd.hpp>
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
  // Takes back n counted events (instructions squashed by a warp's rewind).
  counter& operator-=(std::uint64_t n) {
    m_value -= n;
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
    std::string group;  // written only when the group is enabled ("" always)
  };

  // `group`: statistics of a feature that not every run uses (dynamic parallelism) are
  // registered in a group, and written only when the run enables it, so that the
  // statistics of other runs do not change.
  void add(const std::string& block, const std::string& name, const counter& c,
           std::string description, std::string group = {});
  void add(const std::string& block, const std::string& name, const histogram& h,
           std::string description, std::string group = {});
  void add(const std::string& block, const std::string& name, std::function<double()> value,
           std::string description, std::string group = {});
  void enable_group(const std::string& group) { m_enabled.push_back(group); }
  bool group_enabled(const std::string& group) const {
    return std::find(m_enabled.begin(), m_enabled.end(), group) != m_enabled.end();
  }

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
  // histogram as ".bucket_width" and ".counts[*]"; a statistic of a group is followed by a
  // space and the group's name.
  std::vector<std::string> block_stat_paths() const;

  // The full form's document (models/common/stats_forms.h): {"<summary keys>": ...,
  // "blocks": {"gpu.smx[0]": {"name": value, ...}, ...}}; to_json() is its text.
  nlohmann::json document() const;
  std::string to_json() const;
  void write_summary(std::ostream& os) const;

 private:
  entry& make(const std::string& block, const std::string& name, std::string description,
              std::string group);
  bool written(const entry& e) const;

  std::map<std::string, std::map<std::string, entry>> m_blocks;
  std::map<std::string, double> m_summary;
  std::map<std::string, std::uint64_t> m_counts;
  std::map<std::string, std::string> m_summary_text;
  std::map<std::string, std::string> m_sections;
  std::vector<std::string> m_enabled;
};

}  // namespace gputlm
