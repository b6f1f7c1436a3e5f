// The neural network of the GPGPU-Sim ISPASS'09 benchmarks (NN; Billconan's CUDA
// convolutional network for handwritten digits, NN_kernel.cu / NN.cu), NN of the μC-States
// workloads (Kayiran et al., "μC-States: Fine-grained GPU Datapath Power Management",
// PACT'16, Table 1): four launches over `images` 29 x 29 images (NUM), as the kernels index
// memory (by = blockIdx.y is the image):
//  - executeFirstLayer<<<(6, NUM), (13, 13)>>>: thread (x, y) of feature map bx loads the
//    bias Layer1_Weights[26 bx], then for i = 0..24 Layer1_Neurons[(2y * 29 + 2x +
//    kernelTemplate[i]) + 841 by] and Layer1_Weights[26 bx + 1 + i] (kernelTemplate[i] =
//    29 (i / 5) + i % 5), FFMA; result = 1.7159 * tanhf(0.66666667 * result); stores
//    Layer2_Neurons[169 bx + 13 y + x + 1014 by]. 169 threads: 5 full warps and 9 lanes.
//  - executeSecondLayer<<<(50, NUM), (5, 5)>>>: the bias Layer2_Weights[156 bx], then the
//    source's `if (blockID == 1 && pixelX == 0 && pixelY == 0) result += 0` (a predicated
//    FADD: x + 0 is no identity in IEEE float), then for i = 0..24, k = 0..5:
//    Layer2_Neurons[(2x + 26y + kernelTemplate2[i]) + 169 k + 1014 by] and
//    Layer2_Weights[156 bx + 1 + 6i + k] (kernelTemplate2[i] = 13 (i / 5) + i % 5), FFMA;
//    stores Layer3_Neurons[25 bx + 5 y + x + 1250 by]. One warp of 25 lanes.
//  - executeThirdLayer<<<(100, NUM), (1, 1)>>>: one thread: bias Layer3_Weights[1251 bx], for
//    i = 0..1249 Layer3_Neurons[i + 1250 by] * Layer3_Weights[1251 bx + 1 + i]; stores
//    Layer4_Neurons[bx + 100 by].
//  - executeFourthLayer<<<(10, NUM), (1, 1)>>>: likewise over 100 inputs (weights 101 bx);
//    stores Layer5_Neurons[bx + 10 by].
// Every weight load is the same address for all lanes of a TB (a broadcast).
//
// Where we had to choose:
// - The 25-trip loops of layers 1 and 2 are fully unrolled, kernelTemplate[i] read as a
//   constant-bank operand of the index IADD (a __constant__ array); the 1250- and 100-trip
//   loops of layers 3 and 4 are unrolled by 4 (the loads of four trips, then their FFMAs,
//   pointers advanced by 16 bytes), layer 3's two leftover trips after the loop.
// - tanhf is its branch-free fast path as we assume nvcc compiles it (|x|, EX2 of 2|x|, a
//   reciprocal, the small-|x| polynomial, a select, the sign); the double constants make
//   0.66666667 * result and 1.7159 * tanhf(..) F2F + DMUL + F2F, as the source's types say.
// - Arrays are allocated in NN.cu's cudaMalloc order and copied in its cudaMemcpy order
//   (Layer1_Neurons, the four weight arrays, Layer5_Neurons).
// The ISPASS'09 run is `NN 28` (28 images); that is the default here.
#include <array>
#include <vector>

#include "traces/generators/fp_math.h"
#include "traces/generators/registry.h"

namespace gputlm::traces::generators {

namespace {
namespace neural_net_kernels {
struct layers {
  std::uint64_t n1 = 0, w1 = 0, n2 = 0, w2 = 0, n3 = 0, w3 = 0, n4 = 0, w4 = 0, n5 = 0;
};

// result = 1.7159 * tanhf(0.66666667 * result) on register r (temporaries r + 1 .. r + 9).
code scaled_tanh(program& p, reg r) {
  auto m = p.here();
  const reg d = reg(r + 2), a = reg(r + 4), e = reg(r + 5), q = reg(r + 6), s = reg(r + 7);
  f2d(p, d, r);
  dmul(p, d, d, rz);  // * 0.66666667
  d2f(p, r, d);
  p.raw("FADD.FTZ", {a}, {r});     // |x|
  p.raw("FSETP.GE.AND", {}, {a});  // |x| >= 0.6
  p.fmul(e, a, rz);                // 2 |x| log2(e)
  p.raw("MUFU.EX2", {e}, {e});
  p.fadd(e, e, rz);  // + 1
  p.raw("MUFU.RCP", {e}, {e});
  p.ffma(e, e, rz, rz);  // 1 - 2 / (exp(2|x|) + 1)
  p.fmul(q, r, r);       // small |x|: x + x^3 P(x^2)
  p.ffma(s, q, rz, rz);
  p.ffma(s, q, s, rz);
  p.ffma(s, q, s, rz);
  p.fmul(s, s, q);
  p.ffma(s, s, r, r);
  fp_select(p, e, e, s, a);
  p.raw(p.family() == isa_family::volta ? "LOP3.LUT" : "LOP.OR", {r}, {e, r});  // copysign
  f2d(p, d, r);
  dmul(p, d, d, rz);  // * 1.7159
  d2f(p, r, d);
  return p.since(m);
}

// Both convolution layers: TBs of `block` threads per (map bx, image by); per thread a bias,
// `taps` unrolled index steps of `per_tap` neuron/weight load pairs, tanh and one store.
struct conv_layer {
  const char* name;
  dim3 grid, block;
  std::uint64_t in, weights, out;
  std::uint32_t side;        // input map side (29, 13)
  std::uint32_t in_image;    // input floats per image (841, 1014)
  std::uint32_t weights_tb;  // weights per TB (26, 156)
  std::uint32_t maps_in;     // input maps read per tap (1, 6)
  std::uint32_t out_side;    // output map side (13, 5)
  std::uint32_t out_image;   // output floats per image (1014, 1250)
  bool zero_add;             // layer 2's `result += 0` of thread 0 in TB bx == 1
};

void conv(app_builder& app, const conv_layer& c) {
  program p(app.opcodes(), 60);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(2, sreg::tid_x);
  p.s2r(3, sreg::tid_y);
  p.s2r(4, sreg::ctaid_y);
  p.imad(5, 0, rz, rz);   // weightBegin = blockID * 26 (156)
  p.address(6, 5, rz);    // &weights[weightBegin]
  p.shl(8, 2);            // windowX = 2 pixelX
  p.shl(9, 3);            // windowY = 2 pixelY
  p.imad(10, 9, rz, 8);   // windowY * side + windowX
  p.imad(10, 4, rz, 10);  // + in_image * blockIdx.y
  const code head = p.since(m);
  const code ld_bias = p.ld_global(12, 6, 4);
  const code bias_add = p.fadd(13, 12, rz);  // result = 0 + bias
  code zero_test{}, zero_add{};
  if (c.zero_add) {
    m = p.here();
    p.isetp("NE", 0, rz);  // blockID == 1 && pixelX == 0 && pixelY == 0
    p.isetp("NE", 2, rz);
    p.isetp("NE", 3, rz);
    zero_test = p.since(m);
    zero_add = p.fadd(13, 13, rz);  // @P0 result += 0
  }
  std::vector<code> tap_index, ld_n, ld_w, fma;
  for (std::uint32_t i = 0; i < 25; ++i) {
    m = p.here();
    p.iadd(14, 10, rz);     // + kernelTemplate[i] (c[0x3][4i])
    p.address(16, 14, rz);  // &neurons[..]
    tap_index.push_back(p.since(m));
    for (std::uint32_t k = 0; k < c.maps_in; ++k) {
      ld_n.push_back(p.ld_global(reg(18 + k), 16, 4));  // [R16 + 4 * 169 k]
      ld_w.push_back(p.ld_global(reg(24 + k), 6, 4));   // [R6 + 4 (1 + maps_in i + k)]
    }
    for (std::uint32_t k = 0; k < c.maps_in; ++k)
      fma.push_back(p.ffma(13, reg(18 + k), reg(24 + k), 13));
  }
  const code tanh = scaled_tanh(p, 13);
  m = p.here();
  p.imad(30, 0, rz, rz);  // out_side^2 blockID + out_side pixelY + pixelX + out_image by
  p.imad(30, 3, rz, 30);
  p.iadd(30, 30, 2);
  p.imad(30, 4, rz, 30);
  p.address(32, 30, rz);
  const code out_addr = p.since(m);
  const code st = p.st_global(32, 13, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info = app.kernel(c.name, app.reserve_kernel_id(), c.grid, c.block, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t bx = tb.index.x, by = tb.index.y;
    const std::uint64_t wbase = c.weights + 4ull * c.weights_tb * bx;
    for (std::uint32_t w = 0; w < tb.warps.size(); ++w) {
      warp_emitter e(p, tb.warps[w]);
      const warp_lanes lanes = lanes_of(info.block, w);
      const std::uint32_t live = lanes.live;
      auto window = [&](unsigned l) {
        return std::uint64_t(2 * lanes.ty[l]) * c.side + 2 * lanes.tx[l] + c.in_image * by;
      };
      e.run(head, live);
      e.mem_fn(ld_bias, live, [&](unsigned) { return wbase; });
      e.run(bias_add, live);
      if (c.zero_add) {
        e.run(zero_test, live);
        std::uint32_t first = 0;
        for (unsigned l = 0; l < 32; ++l)
          if ((live >> l & 1u) && bx == 1 && lanes.tx[l] == 0 && lanes.ty[l] == 0) first |= 1u << l;
        e.run(zero_add, first);
      }
      for (std::uint32_t i = 0; i < 25; ++i) {
        const std::uint64_t tap = std::uint64_t(c.side) * (i / 5) + i % 5;  // kernelTemplate
        e.run(tap_index[i], live);
        for (std::uint32_t k = 0; k < c.maps_in; ++k) {
          const std::uint32_t n = i * c.maps_in + k;
          e.mem_fn(ld_n[n], live, [&](unsigned l) {
            return c.in + 4 * (window(l) + tap + std::uint64_t(c.side) * c.side * k);
          });
          e.mem_fn(ld_w[n], live, [&](unsigned) { return wbase + 4 * (1 + n); });
        }
        for (std::uint32_t k = 0; k < c.maps_in; ++k) e.run(fma[i * c.maps_in + k], live);
      }
      e.run(tanh, live);
      e.run(out_addr, live);
      e.mem_fn(st, live, [&](unsigned l) {
        return c.out + 4 * (std::uint64_t(c.out_side) * c.out_side * bx +
                            std::uint64_t(c.out_side) * lanes.ty[l] + lanes.tx[l] +
                            std::uint64_t(c.out_image) * by);
      });
      e.run(done, live);
    }
  });
}

// The fully connected layers: one thread per (neuron bx, image by), `inputs` products.
void dense(app_builder& app, const char* name, std::uint32_t images, std::uint32_t neurons,
           std::uint32_t inputs, std::uint64_t in, std::uint64_t weights, std::uint64_t out) {
  constexpr std::uint32_t unroll = 4;
  const std::uint32_t trips = inputs / unroll, rest = inputs % unroll;
  program p(app.opcodes(), 40);
  auto m = p.here();
  p.prologue();
  p.s2r(0, sreg::ctaid_x);
  p.s2r(2, sreg::ctaid_y);
  p.imad(3, 0, rz, rz);  // weightBegin = blockID * (inputs + 1)
  p.address(4, 3, rz);   // &weights[weightBegin]
  p.imad(6, 2, rz, rz);  // inputs * blockIdx.y
  p.address(8, 6, rz);   // &neurons[inputs * blockIdx.y]
  const code head = p.since(m);
  const code ld_bias = p.ld_global(10, 4, 4);
  m = p.here();
  p.fadd(11, 10, rz);      // result = 0 + bias
  p.raw("MOV", {12}, {});  // i = 0
  const code init = p.since(m);
  std::array<code, unroll> ld_n{}, ld_w{}, fma{};
  for (std::uint32_t k = 0; k < unroll; ++k) {
    ld_n[k] = p.ld_global(reg(14 + k), 8, 4);  // neurons[i + k]: [R8 + 4k]
    ld_w[k] = p.ld_global(reg(18 + k), 4, 4);  // weights[weightBegin + 1 + i + k]
  }
  for (std::uint32_t k = 0; k < unroll; ++k) fma[k] = p.ffma(11, reg(14 + k), reg(18 + k), 11);
  m = p.here();
  p.ptr_add(8, 8, rz);  // += 16 bytes
  p.ptr_add(4, 4, rz);
  p.iadd(12, 12, rz);  // i += 4
  p.isetp("NE", 12, rz);
  const code step = p.since(m);
  const code back = p.bra();
  std::array<code, unroll> rest_n{}, rest_w{}, rest_fma{};
  for (std::uint32_t k = 0; k < rest; ++k) {
    rest_n[k] = p.ld_global(reg(14 + k), 8, 4);
    rest_w[k] = p.ld_global(reg(18 + k), 4, 4);
  }
  for (std::uint32_t k = 0; k < rest; ++k) rest_fma[k] = p.ffma(11, reg(14 + k), reg(18 + k), 11);
  const code tanh = scaled_tanh(p, 11);
  m = p.here();
  p.imad(24, 2, rz, 0);  // blockID + neurons * blockIdx.y
  p.address(26, 24, rz);
  const code out_addr = p.since(m);
  const code st = p.st_global(26, 11, 4);
  const code done = p.exit();
  p.bra();

  const kernel_info info =
      app.kernel(name, app.reserve_kernel_id(), dim3{neurons, images, 1}, dim3{1, 1, 1}, 0, p);
  app.write_kernel(info, [&](tb_trace& tb) {
    const std::uint64_t bx = tb.index.x, by = tb.index.y;
    const std::uint64_t wb = weights + 4 * (std::uint64_t(inputs + 1) * bx);
    const std::uint64_t nb = in + 4 * (std::uint64_t(inputs) * by);
    warp_emitter e(p, tb.warps[0]);
    constexpr std::uint32_t one = 1;
    e.run(head, one);
    e.mem_fn(ld_bias, one, [&](unsigned) { return wb; });
    e.run(init, one);
    auto at = [](std::uint64_t a) { return [a](unsigned) { return a; }; };
    for (std::uint32_t t = 0; t < trips; ++t) {
      for (std::uint32_t k = 0; k < unroll; ++k) {
        const std::uint64_t i = std::uint64_t(unroll) * t + k;
        e.mem_fn(ld_n[k], one, at(nb + 4 * i));
        e.mem_fn(ld_w[k], one, at(wb + 4 * (1 + i)));
      }
      for (std::uint32_t k = 0; k < unroll; ++k) e.run(fma[k], one);
      e.run(step, one);
      e.run(back, t + 1 < trips ? one : 0u);
    }
    for (std::uint32_t k = 0; k < rest; ++k) {
      const std::uint64_t i = std::uint64_t(unroll) * trips + k;
      e.mem_fn(rest_n[k], one, at(nb + 4 * i));
      e.mem_fn(rest_w[k], one, at(wb + 4 * (1 + i)));
    }
    for (std::uint32_t k = 0; k < rest; ++k) e.run(rest_fma[k], one);
    e.run(tanh, one);
    e.run(out_addr, one);
    e.mem_fn(st, one, at(out + 4 * (bx + std::uint64_t(neurons) * by)));
    e.run(done, one);
  });
}

void generate_neural_net(const param_set& ps, app_builder& app) {
  const std::uint32_t num = ps.u32("images");
  layers a;
  // NN.cu's cudaMalloc order, then its cudaMemcpy order.
  a.n1 = app.output(4ull * 29 * 29 * num);
  a.w1 = app.output(4 * 156);
  a.n2 = app.output(4ull * 13 * 13 * 6 * num);
  a.w2 = app.output(4 * 7800);
  a.n3 = app.output(4ull * 1250 * num);
  a.w3 = app.output(4 * 125100);
  a.n4 = app.output(4ull * 100 * num);
  a.w4 = app.output(4 * 1010);
  a.n5 = app.output(4ull * 10 * num);
  app.memcpy_h2d(a.n1, 4ull * 29 * 29 * num);
  app.memcpy_h2d(a.w1, 4 * 156);
  app.memcpy_h2d(a.w2, 4 * 7800);
  app.memcpy_h2d(a.w3, 4 * 125100);
  app.memcpy_h2d(a.w4, 4 * 1010);
  app.memcpy_h2d(a.n5, 4ull * 10 * num);

  conv(app, {"_Z17executeFirstLayerPfS_S_", dim3{6, num, 1}, dim3{13, 13, 1}, a.n1, a.w1, a.n2, 29,
             841, 26, 1, 13, 1014, false});
  conv(app, {"_Z18executeSecondLayerPfS_S_", dim3{50, num, 1}, dim3{5, 5, 1}, a.n2, a.w2, a.n3, 13,
             1014, 156, 6, 5, 1250, true});
  dense(app, "_Z17executeThirdLayerPfS_S_", num, 100, 1250, a.n3, a.w3, a.n4);
  dense(app, "_Z18executeFourthLayerPfS_S_", num, 10, 100, a.n4, a.w4, a.n5);
}
}  // namespace neural_net_kernels
}  // namespace

kernel_generator neural_net_generator() {
  return {"neural_net",
          "ISPASS'09 NN (Billconan's CNN for digits): two convolution layers (13x13 and 5x5 "
          "threads per map), two fully connected layers (one thread per neuron), per image",
          {param_desc::integer("images", 28, 1, 10000,
                               "images processed at once (NUM; the ISPASS'09 run uses 28)")},
          neural_net_kernels::generate_neural_net};
}

}  // namespace gputlm::traces::generators
