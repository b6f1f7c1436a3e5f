// Deterministic graph, matrix and data generators (see input_gen.h).
#include "traces/generators/input_gen.h"

#include <algorithm>
#include <cmath>

namespace gputlm::traces::generators {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

rng::rng(std::uint64_t seed) {
  for (auto& s : m_s) s = splitmix64(seed);
}

std::uint64_t rng::next() {
  const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
  const std::uint64_t t = m_s[1] << 17;
  m_s[2] ^= m_s[0];
  m_s[3] ^= m_s[1];
  m_s[1] ^= m_s[2];
  m_s[0] ^= m_s[3];
  m_s[2] ^= t;
  m_s[3] = rotl(m_s[3], 45);
  return result;
}

double rng::uniform() { return double(next() >> 11) * 0x1.0p-53; }

std::uint64_t rng::below(std::uint64_t n) {
  // Rejection sampling on the top of the range keeps the result unbiased.
  const std::uint64_t limit = ~std::uint64_t(0) - (~std::uint64_t(0) % n);
  std::uint64_t x;
  do x = next();
  while (x >= limit);
  return x % n;
}

csr_graph make_rmat_graph(unsigned scale, unsigned edge_factor, std::uint64_t seed) {
  const std::uint32_t n = std::uint32_t(1) << scale;
  const std::uint64_t m = std::uint64_t(edge_factor) * n;
  rng r(seed);
  std::vector<std::uint64_t> edges;  // (src << 32) | dst
  edges.reserve(2 * m);
  for (std::uint64_t e = 0; e < m; ++e) {
    std::uint32_t u = 0, v = 0;
    for (unsigned bit = 0; bit < scale; ++bit) {
      const double p = r.uniform();
      // Quadrants: a = 0.57 (0,0), b = 0.19 (0,1), c = 0.19 (1,0), d = 0.05 (1,1).
      const unsigned ub = p >= 0.76 ? 1 : 0;
      const unsigned vb = (p >= 0.57 && p < 0.76) || p >= 0.95 ? 1 : 0;
      u = (u << 1) | ub;
      v = (v << 1) | vb;
    }
    edges.push_back((std::uint64_t(u) << 32) | v);
  }
  return make_undirected_graph(n, std::move(edges));
}

csr_graph make_undirected_graph(std::uint32_t vertices, std::vector<std::uint64_t> edges) {
  const std::size_t given = edges.size();
  edges.reserve(2 * given);
  for (std::size_t i = 0; i < given; ++i) {
    const std::uint64_t e = edges[i];
    edges.push_back((e << 32) | (e >> 32));
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

  csr_graph g;
  g.vertices = vertices;
  g.row_ptr.assign(std::size_t(vertices) + 1, 0);
  g.col.reserve(edges.size());
  for (std::uint64_t e : edges) {
    const auto u = std::uint32_t(e >> 32), v = std::uint32_t(e);
    if (u == v) continue;
    ++g.row_ptr[std::size_t(u) + 1];
    g.col.push_back(v);
  }
  for (std::uint32_t v = 0; v < vertices; ++v) g.row_ptr[v + 1] += g.row_ptr[v];
  return g;
}

csr_graph make_citation_graph(std::uint32_t vertices, std::uint32_t steps, std::uint32_t cited,
                              std::uint32_t references, std::uint64_t seed) {
  const std::uint32_t per_step = (vertices + steps - 1) / steps;
  const std::uint32_t m = std::min(cited, references);
  const double copy = 1.0 / m - 1.0 / references;
  rng r(seed);
  csr_graph g;
  g.vertices = vertices;
  g.row_ptr.assign(std::size_t(vertices) + 1, 0);
  std::vector<std::uint32_t> picked;
  for (std::uint32_t v = 0; v < vertices; ++v) {
    const std::size_t first = g.col.size();
    const std::uint32_t step = v / per_step;
    if (step > 0) {
      // Floyd's algorithm: `take` distinct papers of the previous step.
      const std::uint32_t base = (step - 1) * per_step;
      const std::uint32_t take = std::min(m, per_step);
      picked.clear();
      for (std::uint32_t j = per_step - take; j < per_step; ++j) {
        const auto t = std::uint32_t(r.below(std::uint64_t(j) + 1));
        picked.push_back(std::find(picked.begin(), picked.end(), t) == picked.end() ? t : j);
      }
      for (std::uint32_t a : picked) {
        g.col.push_back(base + a);
        for (std::uint32_t i = g.row_ptr[base + a]; i < g.row_ptr[base + a + 1]; ++i) {
          const std::uint32_t reference = g.col[i];
          if (r.uniform() < copy) g.col.push_back(reference);
        }
      }
      std::sort(g.col.begin() + std::ptrdiff_t(first), g.col.end());
      g.col.erase(std::unique(g.col.begin() + std::ptrdiff_t(first), g.col.end()), g.col.end());
    }
    g.row_ptr[v + 1] = std::uint32_t(g.col.size());
  }
  return g;
}

csr_graph make_banded_graph(std::uint32_t vertices, unsigned edges_per_vertex, std::uint32_t band,
                            double long_range, std::uint64_t seed) {
  rng r(seed);
  const std::uint64_t n = vertices;
  std::vector<std::uint64_t> edges;
  edges.reserve(n * edges_per_vertex);
  for (std::uint64_t v = 0; v < n; ++v) {
    // Near: lo..hi without v; far: 0..lo-1 and hi+1..n-1.
    const std::uint64_t lo = v > band ? v - band : 0, hi = std::min(n - 1, v + band);
    const std::uint64_t near = hi - lo, far = lo + (n - 1 - hi);
    for (unsigned e = 0; e < edges_per_vertex; ++e) {
      const bool is_far = r.uniform() < long_range && far > 0;
      std::uint64_t u;
      if (is_far) {
        u = r.below(far);
        if (u >= lo) u += hi + 1 - lo;
      } else if (near > 0) {
        u = lo + r.below(near);
        if (u >= v) ++u;
      } else {
        continue;  // a single vertex
      }
      edges.push_back((v << 32) | u);
    }
  }
  return make_undirected_graph(vertices, std::move(edges));
}

csr_matrix make_powerlaw_matrix(std::uint32_t rows, std::uint32_t cols, double alpha,
                                std::uint32_t max_row, std::uint64_t seed) {
  const std::uint32_t lmax = std::max<std::uint32_t>(1, std::min(max_row, cols));
  std::vector<double> cdf(lmax);
  double total = 0;
  for (std::uint32_t l = 1; l <= lmax; ++l) {
    total += std::pow(double(l), -alpha);
    cdf[l - 1] = total;
  }
  rng r(seed);
  csr_matrix a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.assign(rows + 1, 0);
  std::vector<std::uint32_t> picked;
  for (std::uint32_t row = 0; row < rows; ++row) {
    const double u = r.uniform() * total;
    const std::uint32_t len =
        std::uint32_t(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin()) + 1;
    const std::uint32_t l = std::min(len, lmax);
    // Floyd's algorithm: l distinct columns out of cols.
    picked.clear();
    for (std::uint32_t j = cols - l; j < cols; ++j) {
      const auto t = std::uint32_t(r.below(std::uint64_t(j) + 1));
      if (std::find(picked.begin(), picked.end(), t) == picked.end())
        picked.push_back(t);
      else
        picked.push_back(j);
    }
    std::sort(picked.begin(), picked.end());
    for (std::uint32_t c : picked) {
      a.col.push_back(c);
      a.val.push_back(float(r.uniform()));
    }
    a.row_ptr[row + 1] = std::uint32_t(a.col.size());
  }
  return a;
}

std::vector<std::uint32_t> make_uniform_u32(std::uint64_t n, std::uint64_t seed) {
  rng r(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = std::uint32_t(r.next() >> 32);
  return v;
}

std::vector<std::uint32_t> make_uniform_range(std::uint64_t n, std::uint32_t max_value,
                                              std::uint64_t seed) {
  rng r(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = 1 + std::uint32_t(r.below(max_value));
  return v;
}

std::vector<std::uint32_t> make_gaussian_u32(std::uint64_t n, double mean, double sigma,
                                             std::uint32_t range, std::uint64_t seed) {
  rng r(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) {
    double z = -6.0;  // Irwin-Hall: the sum of 12 uniforms has mean 6, variance 1
    for (int i = 0; i < 12; ++i) z += r.uniform();
    const double k = std::floor(mean + sigma * z + 0.5);
    x = k < 0 ? 0 : k >= double(range) ? range - 1 : std::uint32_t(k);
  }
  return v;
}

double hash_unit(std::uint64_t seed, std::uint64_t key) {
  std::uint64_t x = seed ^ (key * 0xd1b54a32d192ed03ull);
  splitmix64(x);
  return double(splitmix64(x) >> 11) * 0x1.0p-53;
}

}  // namespace gputlm::traces::generators
