// Deterministic inputs for the kernel generators: a portable random number generator, R-MAT
// graphs (Chakrabarti et al., SDM'04; the Graph 500 generator) for BFS, citation graphs
// (Simkin & Roychowdhury's random-citing scientists), banded graphs with long-range edges
// (the near-diagonal structure of the cage matrices), power-law sparse matrices for SpMV, and
// uniform data arrays. The same parameters give the same input on every platform and
// standard library: no std:: distributions, which are implementation-defined.
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

// The undirected graph of `edges` ((u << 32) | v, u and v < vertices, either direction):
// each edge stored in both directions, self-loops and duplicates removed.
csr_graph make_undirected_graph(std::uint32_t vertices, std::vector<std::uint64_t> edges);

// A citation graph by the modified model of random-citing scientists (Simkin & Roychowdhury,
// "A mathematical theory of citing", JASIST 58(11), 2007: a scientist writing a paper picks a
// few random recent papers, cites them and copies some of their references). Papers
// (vertices) appear in id order in `steps` time steps of ceil(vertices / steps) papers; a
// paper of step s > 0 cites m = min(cited, references) distinct papers of step s - 1, chosen
// uniformly, and copies each reference of each of them with probability p = 1/m -
// 1/references, so that in the steady state a paper has m / (1 - m·p) = `references`
// references. Directed: row v lists the papers v cites (all of earlier steps), sorted, no
// duplicates; the first step cites nothing.
csr_graph make_citation_graph(std::uint32_t vertices, std::uint32_t steps, std::uint32_t cited,
                              std::uint32_t references, std::uint64_t seed);

// Undirected graph on `vertices` vertices: each vertex v draws `edges_per_vertex` edges; with
// probability `long_range` (and if one exists) to a vertex uniform among those farther than
// `band` from v, otherwise to one uniform among those at distance 1..band (within
// 0..vertices-1). Stored as make_undirected_graph stores it.
csr_graph make_banded_graph(std::uint32_t vertices, unsigned edges_per_vertex, std::uint32_t band,
                            double long_range, std::uint64_t seed);

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
