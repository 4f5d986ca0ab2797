#ifndef KOKKOSDTENSOR_RANDOMOPS_HPP
#define KOKKOSDTENSOR_RANDOMOPS_HPP

// The random ops. Each works on a plain Kokkos View and, with KokkosDTensor_DTensorRandom.hpp,
// on a DTensor, in four forms:
//   op(t, params...)                    default source: default_generator() for a View,
//                                       the DTensor RNG tracker for a DTensor
//   op(t, params..., gen)               the Generator `gen`
//   op(space, t, params...[, gen])      the same, run on the execution-space instance `space`
// A View is filled from the stream at the source's (seed, offset) as a whole tensor
// (element with row-major index L takes words offset + w*L ...), then the offset
// advances by round_up_to_4(w * view.size()). Parameters (and the counter-space overflow)
// are checked before any data or state changes. The ops are asynchronous like any Kokkos
// kernel (fence before reading on the host). docs/stream.md specifies every transform.
//
//   uniform_(t, from = 0, to = 1)       float/double, values in [from, to)
//   normal_(t, mean = 0, std = 1)       float/double
//   bernoulli_(t, p = 0.5)              any arithmetic type: 1 with probability p, else 0
//   random_bits_(t)                     uint32 (one word) or uint64 (two words)
//   randint_(t, low, high)              32/64-bit integers in [low, high)
//   exponential_(t, lambd = 1)          float/double, -log(u) / lambd
//   log_normal_(t, mean = 1, std = 2)   float/double, exp(normal(mean, std))
//   geometric_(t, p)                    trials up to the first success (>= 1)
//   dropout_(t, p)                      float/double, in place: zero with probability p,
//                                       else x / (1 - p); returns the state it drew from
//   trunc_normal_(t, mean = 0, std = 1, a = -2, b = 2)   normal truncated to [a, b]

#include <impl/KokkosDTensor_RandomTarget.hpp>
#include <KokkosDTensor_Generator.hpp>
#include <KokkosDTensor_RNGState.hpp>
#include <cstdint>

namespace KokkosDTensor {
namespace Impl {

// Each op: its name in errors and the factory that validates its parameters.
#define KOKKOSDTENSOR_IMPL_OP(OP, NAME, FACTORY, PARAMS, ARGS) \
  struct OP {                                                  \
    static constexpr const char* name = NAME;                  \
    template <class T>                                         \
    static auto make PARAMS {                                  \
      return FACTORY<T> ARGS;                                  \
    }                                                          \
  };
KOKKOSDTENSOR_IMPL_OP(UniformOp, "KokkosDTensor::uniform_", make_uniform,
                      (double from = 0, double to = 1), (from, to, name))
KOKKOSDTENSOR_IMPL_OP(NormalOp, "KokkosDTensor::normal_", make_normal,
                      (double mean = 0, double std = 1), (mean, std, name))
KOKKOSDTENSOR_IMPL_OP(BernoulliOp, "KokkosDTensor::bernoulli_", make_bernoulli,
                      (double p = 0.5), (p, name))
KOKKOSDTENSOR_IMPL_OP(RandomBitsOp, "KokkosDTensor::random_bits_", make_random_bits, (), (name))
KOKKOSDTENSOR_IMPL_OP(RandIntOp, "KokkosDTensor::randint_", make_randint,
                      (std::int64_t low, std::int64_t high), (low, high, name))
KOKKOSDTENSOR_IMPL_OP(ExponentialOp, "KokkosDTensor::exponential_", make_exponential,
                      (double lambd = 1), (lambd, name))
KOKKOSDTENSOR_IMPL_OP(LogNormalOp, "KokkosDTensor::log_normal_", make_log_normal,
                      (double mean = 1, double std = 2), (mean, std, name))
KOKKOSDTENSOR_IMPL_OP(GeometricOp, "KokkosDTensor::geometric_", make_geometric, (double p),
                      (p, name))
KOKKOSDTENSOR_IMPL_OP(DropoutOp, "KokkosDTensor::dropout_", make_dropout, (double p), (p, name))
KOKKOSDTENSOR_IMPL_OP(TruncNormalOp, "KokkosDTensor::trunc_normal_", make_trunc_normal,
                      (double mean = 0, double std = 1, double a = -2, double b = 2),
                      (mean, std, a, b, name))
#undef KOKKOSDTENSOR_IMPL_OP

}  // namespace Impl

#define KOKKOSDTENSOR_IMPL_PUBLIC_OP(NAME, OP, RESULT)                     \
  template <class First, class... Rest, class = Impl::enable_if_op_args_t<First>> \
  RESULT NAME(First&& first, Rest&&... rest) {                             \
    return static_cast<RESULT>(Impl::run_random_op<Impl::OP>(first, rest...)); \
  }
KOKKOSDTENSOR_IMPL_PUBLIC_OP(uniform_, UniformOp, void)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(normal_, NormalOp, void)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(bernoulli_, BernoulliOp, void)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(random_bits_, RandomBitsOp, void)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(randint_, RandIntOp, void)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(exponential_, ExponentialOp, void)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(log_normal_, LogNormalOp, void)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(geometric_, GeometricOp, void)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(dropout_, DropoutOp, RNGState)
KOKKOSDTENSOR_IMPL_PUBLIC_OP(trunc_normal_, TruncNormalOp, void)
#undef KOKKOSDTENSOR_IMPL_PUBLIC_OP

}  // namespace KokkosDTensor

#endif
