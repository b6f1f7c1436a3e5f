// Deterministic inputs for the kernel generators: a portable random number generator, R-MAT
// graphs (Chakrabarti et al., SDM'04; the Graph 500 generator) for BFS, power-law sparse
// matrices for SpMV, and uniform data arrays. The same parameters give the same input on every
// platform and standard library: no std:: distributions, which are implementation-defined.
#pragma once

#include <cstdint>
#include <vector>

namespace gputlm::traces::generators {

// xoshiro256** seeded through splitmix64 (Blackman & Vigna).
class rng {
 public:
  explicit rng(std::uint64_t seed);
  std::uint64_t next();
  double uniform();                      // [0, 1), 53 bits
  std::uint64_t below(std::uint64_t n);  // [0, n), n > 0, unbiased

 private:
  std::uint64_t m_s[4];
};

// Compressed sparse rows: row r's entries are col[row_ptr[r] .. row_ptr[r+1]).
struct csr_graph {
  std::uint32_t vertices = 0;
  std::vector<std::uint32_t> row_ptr;  // vertices + 1 entries
  std::vector<std::uint32_t> col;      // neighbour ids, sorted per row, no duplicates
  std::uint32_t degree(std::uint32_t v) const { return row_ptr[v + 1] - row_ptr[v]; }
};

struct csr_matrix {
  std::uint32_t rows = 0, cols = 0;
  std::vector<std::uint32_t> row_ptr;  // rows + 1 entries
  std::vector<std::uint32_t> col;      // sorted per row, no duplicates
  std::vector<float> val;
  std::uint32_t row_length(std::uint32_t r) const { return row_ptr[r + 1] - row_ptr[r]; }
};

// Undirected R-MAT graph with 2^scale vertices and about edge_factor * 2^scale generated
// edges (a, b, c) = (0.57, 0.19, 0.19); self-loops and duplicate edges removed, each edge
// stored in both directions.
csr_graph make_rmat_graph(unsigned scale, unsigned edge_factor, std::uint64_t seed);

// rows x cols matrix whose row lengths follow a discrete power law P(L) ~ L^-alpha on
// [1, max_row] (clamped to cols); column indices uniform without repetition; values in [0, 1).
csr_matrix make_powerlaw_matrix(std::uint32_t rows, std::uint32_t cols, double alpha,
                                std::uint32_t max_row, std::uint64_t seed);

// n values uniform in [0, 2^32).
std::vector<std::uint32_t> make_uniform_u32(std::uint64_t n, std::uint64_t seed);

// n values in [1, max_value], uniform (edge weights of sssp).
std::vector<std::uint32_t> make_uniform_range(std::uint64_t n, std::uint32_t max_value,
                                              std::uint64_t seed);

// n values round(mean + sigma * z) clamped to [0, range), z approximately standard normal: the
// sum of 12 rng::uniform() minus 6 (exact arithmetic on every platform, unlike
// std::normal_distribution or Box-Muller through libm).
std::vector<std::uint32_t> make_gaussian_u32(std::uint64_t n, double mean, double sigma,
                                             std::uint32_t range, std::uint64_t seed);

// A value in [0, 1) that depends only on (seed, key): splitmix64 of both, top 53 bits.
double hash_unit(std::uint64_t seed, std::uint64_t key);

}  // namespace gputlm::traces::generators
