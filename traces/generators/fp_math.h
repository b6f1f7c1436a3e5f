// Instruction sequences of CUDA floating-point library calls and conversions, as nvcc
// expands them (the fast path; the rarely taken slow paths of IEEE division and square root
// are not emitted). Used by the generators whose kernels compute with them.
#pragma once

#include "traces/generators/sass.h"

namespace gputlm::traces::generators {

// x / y, IEEE (div.rn.f32): MUFU.RCP, then Newton and residual FFMAs.
inline code fp_div(program& p, reg d, reg x, reg y) {
  auto m = p.here();
  p.raw("MUFU.RCP", {d}, {y});
  p.raw("FFMA", {reg(d + 1)}, {y, d});  // -y * r + 1
  p.ffma(d, d, reg(d + 1), d);
  p.fmul(reg(d + 1), x, d);
  p.ffma(reg(d + 2), y, reg(d + 1), x);
  p.ffma(d, d, reg(d + 2), reg(d + 1));
  return p.since(m);
}

// 1 / x, IEEE (rcp.rn.f32): MUFU.RCP and one Newton step.
inline code fp_rcp(program& p, reg d, reg x) {
  auto m = p.here();
  p.raw("MUFU.RCP", {d}, {x});
  p.raw("FFMA", {reg(d + 1)}, {x, d});  // -x * r + 1
  p.ffma(d, d, reg(d + 1), d);
  return p.since(m);
}

// sqrtf (sqrt.rn.f32): MUFU.RSQ, x * rsqrt, and the correction FFMAs.
inline code fp_sqrt(program& p, reg d, reg x) {
  auto m = p.here();
  p.raw("MUFU.RSQ", {d}, {x});
  p.fmul(reg(d + 1), x, d);
  p.fmul(d, d, rz);
  p.ffma(reg(d + 2), reg(d + 1), reg(d + 1), x);
  p.ffma(d, reg(d + 2), d, reg(d + 1));
  return p.since(m);
}

// __logf(x) = lg2.approx(x) * ln 2.
inline code fp_log_fast(program& p, reg d, reg x) {
  auto m = p.here();
  p.raw("MUFU.LG2", {d}, {x});
  p.fmul(d, d, rz);
  return p.since(m);
}

// __expf(x) = ex2.approx(x * log2 e).
inline code fp_exp_fast(program& p, reg d, reg x) {
  auto m = p.here();
  p.fmul(d, x, rz);
  p.raw("MUFU.EX2", {d}, {d});
  return p.since(m);
}

// d = predicate ? a : b on floats: FSEL (Pascal, Volta), FCMP against the condition value
// on Kepler (which has no FSEL).
inline code fp_select(program& p, reg d, reg a, reg b, reg cond) {
  if (p.family() == isa_family::kepler) return p.raw("FCMP.GT", {d}, {a, b, cond});
  return p.raw("FSEL", {d}, {a, b});
}

inline code f2d(program& p, reg d, reg x) { return p.raw("F2F.F64.F32", {d}, {x}); }
inline code d2f(program& p, reg d, reg x) { return p.raw("F2F.F32.F64", {d}, {x}); }
inline code dadd(program& p, reg d, reg a, reg b) { return p.raw("DADD", {d}, {a, b}); }
inline code dmul(program& p, reg d, reg a, reg b) { return p.raw("DMUL", {d}, {a, b}); }
inline code dfma(program& p, reg d, reg a, reg b, reg c) { return p.raw("DFMA", {d}, {a, b, c}); }

// x / y in double (div.rn.f64): MUFU.RCP64H, Newton DFMAs, the quotient and its residual.
inline code dp_div(program& p, reg d, reg x, reg y) {
  auto m = p.here();
  p.raw("MUFU.RCP64H", {reg(d + 1)}, {reg(y + 1)});
  p.raw("DFMA", {reg(d + 2)}, {y, d});  // -y * r + 1
  p.raw("DFMA", {reg(d + 2)}, {reg(d + 2), reg(d + 2)});
  dfma(p, d, d, reg(d + 2), d);
  dmul(p, reg(d + 2), x, d);
  dfma(p, reg(d + 4), y, reg(d + 2), x);
  dfma(p, d, d, reg(d + 4), reg(d + 2));
  return p.since(m);
}

}  // namespace gputlm::traces::generators
