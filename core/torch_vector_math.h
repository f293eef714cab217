// Single-precision log, sine and cosine exactly as torch's AVX2 normal kernel gets them.
//
// torch.randn on a contiguous float tensor of 16 or more elements turns uniforms into
// normals with 8-wide AVX2 code whose log and sincos are Cephes-style polynomials in
// float (the "avx_mathfun" routines), not the C library's functions. They differ from
// std::log / std::sin in the last bits, and those bits show in a printed weight, so
// they are written out again here, one lane at a time, with every rounding step of
// the vector code kept. Debian's torch is compiled with FMA contraction, so its vector
// code fuses some multiply-add pairs and rounds others twice; std::fma marks exactly
// the pairs its compiled kernel fuses (read from the machine code of
// libtorch_cpu.so 1.13.1), and the remaining products feed no addition the compiler
// could fuse.
#pragma once

namespace attn {

// Natural log of x > 0 as torch's log256_ps computes it (x <= 0 gives NaN).
float torch_avx_log(float x);

// Sine and cosine of x as torch's sincos256_ps computes them; accurate for
// |x| < 8192, which covers Box-Muller's angles in [0, 2 pi).
void torch_avx_sincos(float x, float* sine, float* cosine);

}  // namespace attn
