#ifndef KOKKOSDTENSOR_IMPL_FILLETI_HPP
#define KOKKOSDTENSOR_IMPL_FILLETI_HPP

// Explicit instantiation of the fill kernels (as Kokkos Kernels' ETI): the compiled library
// instantiates fill_strided<FillPath::automatic> for every enabled execution space and every
// (distribution, value type) below, in src/eti/; with KOKKOSDTENSOR_ENABLE_ETI these are
// declared extern here, so a user's op call compiles to a function call. Any other
// combination (another value type, a test-only path) is instantiated where it is used.

#include <KokkosDTensor_Config.hpp>

// MACRO(PREFIX, SPACE, DIST, T) for every distribution and value type the library
// instantiates, grouped by the source file in src/eti/ that instantiates them (several
// files, so that the library's build runs in parallel). The 16-bit floating types get
// RoundedDistribution<T, DIST<float>> where Kokkos makes them 16-bit types (GPU builds);
// elsewhere they are float, and no kernel is added. (KOKKOSDTENSOR_HALF_T_IS_16BIT and
// KOKKOSDTENSOR_BHALF_T_IS_16BIT come from KokkosDTensor_ReducedPrecision.hpp, which
// KokkosDTensor_FillDispatch.hpp includes before this file.)
#if defined(KOKKOSDTENSOR_HALF_T_IS_16BIT) && KOKKOSDTENSOR_HALF_T_IS_16BIT
#define KOKKOSDTENSOR_IMPL_ETI_HALF(PREFIX, SPACE, DIST) \
  KOKKOSDTENSOR_IMPL_FILL_ROUNDED_INSTANCE(PREFIX, SPACE, DIST, Kokkos::Experimental::half_t)
#else
#define KOKKOSDTENSOR_IMPL_ETI_HALF(PREFIX, SPACE, DIST)
#endif
#if defined(KOKKOSDTENSOR_BHALF_T_IS_16BIT) && KOKKOSDTENSOR_BHALF_T_IS_16BIT
#define KOKKOSDTENSOR_IMPL_ETI_BHALF(PREFIX, SPACE, DIST) \
  KOKKOSDTENSOR_IMPL_FILL_ROUNDED_INSTANCE(PREFIX, SPACE, DIST, Kokkos::Experimental::bhalf_t)
#else
#define KOKKOSDTENSOR_IMPL_ETI_BHALF(PREFIX, SPACE, DIST)
#endif
#define KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, DIST) \
  KOKKOSDTENSOR_IMPL_ETI_HALF(PREFIX, SPACE, DIST)        \
  KOKKOSDTENSOR_IMPL_ETI_BHALF(PREFIX, SPACE, DIST)
#define KOKKOSDTENSOR_IMPL_ETI_UNIFORM(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, Uniform, float)                       \
  MACRO(PREFIX, SPACE, Uniform, double)                      \
  MACRO(PREFIX, SPACE, StandardUniform, float)               \
  MACRO(PREFIX, SPACE, StandardUniform, double)              \
  KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, Uniform)       \
  KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, StandardUniform)
#define KOKKOSDTENSOR_IMPL_ETI_NORMAL(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, Normal, float)                       \
  MACRO(PREFIX, SPACE, Normal, double)                      \
  KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, Normal)
#define KOKKOSDTENSOR_IMPL_ETI_LOGNORMAL(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, LogNormal, float)                       \
  MACRO(PREFIX, SPACE, LogNormal, double)                      \
  KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, LogNormal)
#define KOKKOSDTENSOR_IMPL_ETI_TRUNCNORMAL(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, TruncNormal, float)                       \
  MACRO(PREFIX, SPACE, TruncNormal, double)                      \
  KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, TruncNormal)
#define KOKKOSDTENSOR_IMPL_ETI_BERNOULLI(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, Bernoulli, float)                       \
  MACRO(PREFIX, SPACE, Bernoulli, double)                      \
  MACRO(PREFIX, SPACE, Bernoulli, bool)                        \
  MACRO(PREFIX, SPACE, Bernoulli, std::int8_t)                 \
  MACRO(PREFIX, SPACE, Bernoulli, std::uint8_t)                \
  MACRO(PREFIX, SPACE, Bernoulli, std::int32_t)                \
  MACRO(PREFIX, SPACE, Bernoulli, std::uint32_t)               \
  MACRO(PREFIX, SPACE, Bernoulli, std::int64_t)                \
  MACRO(PREFIX, SPACE, Bernoulli, std::uint64_t)               \
  KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, Bernoulli)
#define KOKKOSDTENSOR_IMPL_ETI_DROPOUT(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, Dropout, float)                       \
  MACRO(PREFIX, SPACE, Dropout, double)                      \
  KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, Dropout)
#define KOKKOSDTENSOR_IMPL_ETI_RANDOMBITS(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, RandomBits, std::uint32_t)               \
  MACRO(PREFIX, SPACE, RandomBits, std::uint64_t)
#define KOKKOSDTENSOR_IMPL_ETI_RANDINT(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, RandInt, std::int32_t)                \
  MACRO(PREFIX, SPACE, RandInt, std::uint32_t)               \
  MACRO(PREFIX, SPACE, RandInt, std::int64_t)                \
  MACRO(PREFIX, SPACE, RandInt, std::uint64_t)
#define KOKKOSDTENSOR_IMPL_ETI_EXPONENTIAL(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, Exponential, float)                       \
  MACRO(PREFIX, SPACE, Exponential, double)                      \
  KOKKOSDTENSOR_IMPL_ETI_16BIT(PREFIX, SPACE, Exponential)
#define KOKKOSDTENSOR_IMPL_ETI_GEOMETRIC(MACRO, PREFIX, SPACE) \
  MACRO(PREFIX, SPACE, Geometric, float)                       \
  MACRO(PREFIX, SPACE, Geometric, double)                      \
  MACRO(PREFIX, SPACE, Geometric, std::int32_t)                \
  MACRO(PREFIX, SPACE, Geometric, std::int64_t)
#define KOKKOSDTENSOR_IMPL_ETI_ALL(MACRO, PREFIX, SPACE)   \
  KOKKOSDTENSOR_IMPL_ETI_UNIFORM(MACRO, PREFIX, SPACE)     \
  KOKKOSDTENSOR_IMPL_ETI_NORMAL(MACRO, PREFIX, SPACE)      \
  KOKKOSDTENSOR_IMPL_ETI_LOGNORMAL(MACRO, PREFIX, SPACE)   \
  KOKKOSDTENSOR_IMPL_ETI_TRUNCNORMAL(MACRO, PREFIX, SPACE) \
  KOKKOSDTENSOR_IMPL_ETI_BERNOULLI(MACRO, PREFIX, SPACE)   \
  KOKKOSDTENSOR_IMPL_ETI_DROPOUT(MACRO, PREFIX, SPACE)     \
  KOKKOSDTENSOR_IMPL_ETI_RANDOMBITS(MACRO, PREFIX, SPACE)  \
  KOKKOSDTENSOR_IMPL_ETI_RANDINT(MACRO, PREFIX, SPACE)     \
  KOKKOSDTENSOR_IMPL_ETI_EXPONENTIAL(MACRO, PREFIX, SPACE) \
  KOKKOSDTENSOR_IMPL_ETI_GEOMETRIC(MACRO, PREFIX, SPACE)

// One instantiation of the automatic path (PREFIX: `extern template` or `template`).
#define KOKKOSDTENSOR_IMPL_FILL_INSTANCE(PREFIX, SPACE, DIST, T)                                 \
  PREFIX void KokkosDTensor::Impl::fill_strided<KokkosDTensor::Impl::FillPath::automatic, SPACE, \
                                                KokkosDTensor::Impl::DIST<T>>(                   \
      const SPACE&, const KokkosDTensor::Impl::StridedData<T>&,                                  \
      const KokkosDTensor::Impl::DIST<T>&, const KokkosDTensor::RNGState&,                       \
      const KokkosDTensor::Impl::GlobalBox&);

// One instantiation of the automatic path for RoundedDistribution<T, DIST<float>>.
#define KOKKOSDTENSOR_IMPL_FILL_ROUNDED_INSTANCE(PREFIX, SPACE, DIST, T)                    \
  PREFIX void KokkosDTensor::Impl::fill_strided<                                            \
      KokkosDTensor::Impl::FillPath::automatic, SPACE,                                      \
      KokkosDTensor::Impl::RoundedDistribution<T, KokkosDTensor::Impl::DIST<float>>>(       \
      const SPACE&, const KokkosDTensor::Impl::StridedData<T>&,                             \
      const KokkosDTensor::Impl::RoundedDistribution<T, KokkosDTensor::Impl::DIST<float>>&, \
      const KokkosDTensor::RNGState&, const KokkosDTensor::Impl::GlobalBox&);

// MACRO(SPACE) for every enabled execution space. HIP and SYCL are reached through
// DefaultExecutionSpace, whose name changed between Kokkos versions.
#if defined(KOKKOS_ENABLE_SERIAL)
#define KOKKOSDTENSOR_IMPL_ETI_SERIAL(MACRO) MACRO(Kokkos::Serial)
#else
#define KOKKOSDTENSOR_IMPL_ETI_SERIAL(MACRO)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#define KOKKOSDTENSOR_IMPL_ETI_OPENMP(MACRO) MACRO(Kokkos::OpenMP)
#else
#define KOKKOSDTENSOR_IMPL_ETI_OPENMP(MACRO)
#endif
#if defined(KOKKOS_ENABLE_THREADS)
#define KOKKOSDTENSOR_IMPL_ETI_THREADS(MACRO) MACRO(Kokkos::Threads)
#else
#define KOKKOSDTENSOR_IMPL_ETI_THREADS(MACRO)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#define KOKKOSDTENSOR_IMPL_ETI_DEVICE(MACRO) MACRO(Kokkos::Cuda)
#elif defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)
#define KOKKOSDTENSOR_IMPL_ETI_DEVICE(MACRO) MACRO(Kokkos::DefaultExecutionSpace)
#else
#define KOKKOSDTENSOR_IMPL_ETI_DEVICE(MACRO)
#endif
#define KOKKOSDTENSOR_IMPL_FOR_EACH_SPACE(MACRO) \
  KOKKOSDTENSOR_IMPL_ETI_SERIAL(MACRO)           \
  KOKKOSDTENSOR_IMPL_ETI_OPENMP(MACRO)           \
  KOKKOSDTENSOR_IMPL_ETI_THREADS(MACRO)          \
  KOKKOSDTENSOR_IMPL_ETI_DEVICE(MACRO)

#if defined(KOKKOSDTENSOR_ENABLE_ETI)
#define KOKKOSDTENSOR_IMPL_EXTERN_IN(SPACE) \
  KOKKOSDTENSOR_IMPL_ETI_ALL(KOKKOSDTENSOR_IMPL_FILL_INSTANCE, extern template, SPACE)
KOKKOSDTENSOR_IMPL_FOR_EACH_SPACE(KOKKOSDTENSOR_IMPL_EXTERN_IN)
#undef KOKKOSDTENSOR_IMPL_EXTERN_IN
#endif

#endif
