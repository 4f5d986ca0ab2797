// kernel_shapes: which CUDA kernel shape lets a Philox fill run at the memory rate
// (docs/performance.md, "Why it is built this way"). Runs the library's distribution
// objects in plain CUDA kernels of several shapes and in the library's own functor, checks
// that all of them write the same bytes, and times each against cudaMemset on the same
// buffer (2^28 four-byte elements, median of 30). Not part of the CMake build. Build with
// the nvcc of a CUDA toolkit and a CUDA-enabled Kokkos install at $KOKKOS:
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda \
//        -I include -I $KOKKOS/include perf_tests/kernel_shapes.cu -o kernel_shapes \
//        -L $KOKKOS/lib -lkokkoscore -ldl -lcuda
//   ./kernel_shapes ["bits uniform from_to bernoulli normal f64 launch"] [lib]
//   (lib: only the library-functor rows; launch: instead of the kernel shapes, the library
//   functor through Kokkos with launch bounds, back to back, inside Kokkos' loop copied
//   into a plain kernel, not inlined, and other bodies and K through Kokkos: version 6)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <vector>

namespace I = KokkosDTensor::Impl;

template <class T, int E>
__device__ __forceinline__ void store(T* dst, const T (&v)[E], bool streaming) {
  using V = I::BlockVector<T, E>;
  V x;
  for (int e = 0; e < E; ++e) x.value[e] = v[e];
  if (streaming && sizeof(V) == 16) {
    __stcs(reinterpret_cast<float4*>(dst), *reinterpret_cast<float4*>(&x));
  } else {
    *reinterpret_cast<V*>(dst) = x;
  }
}

// Strided: item i fills blocks i + j * items, j < K.
template <class Dist, int K, int BS, bool STREAM>
__global__ void __launch_bounds__(BS)
    strided(typename Dist::value_type* out, Dist dist, I::PhiloxKeySchedule key, unsigned nblocks,
            unsigned items) {
  using T = typename Dist::value_type;
  constexpr int E = Dist::elements_per_block;
  const unsigned item = blockIdx.x * BS + threadIdx.x;
  I::PhiloxBlock w[K];
#pragma unroll
  for (int j = 0; j < K; ++j) w[j] = I::stream_block(key, item + j * items);
#pragma unroll
  for (int j = 0; j < K; ++j) {
    const unsigned b = item + j * items;
    if (b < nblocks) {
      T v[E];
      dist(w[j], v);
      store<T, E>(out + size_t(b) * E, v, STREAM);
    }
  }
}

// Grid-stride persistent: fixed grid, each thread loops over blocks tid, tid + total, ...
// K independent blocks per iteration.
template <class Dist, int K, int BS, bool STREAM>
__global__ void __launch_bounds__(BS) gridstride(typename Dist::value_type* out, Dist dist,
                                                 I::PhiloxKeySchedule key, unsigned nblocks) {
  using T = typename Dist::value_type;
  constexpr int E = Dist::elements_per_block;
  const unsigned total = gridDim.x * BS;
  for (unsigned base = blockIdx.x * BS + threadIdx.x; base < nblocks; base += K * total) {
    I::PhiloxBlock w[K];
#pragma unroll
    for (int j = 0; j < K; ++j) w[j] = I::stream_block(key, base + j * total);
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const unsigned b = base + j * total;
      if (b < nblocks) {
        T v[E];
        dist(w[j], v);
        store<T, E>(out + size_t(b) * E, v, STREAM);
      }
    }
  }
}

template <class F>
__global__ void __launch_bounds__(128) raw_functor(F f, unsigned n) {
  const unsigned i = blockIdx.x * 128 + threadIdx.x;
  if (i < n) f(i);
}

template <class F>
__global__ void __launch_bounds__(256) raw_functor256(F f, unsigned n) {
  const unsigned i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) f(i);
}

// Kokkos' RangePolicy loop (Kokkos_Cuda_Parallel_Range.hpp), here with 128 threads.
template <class F>
__global__ void __launch_bounds__(128) raw_loop(F f, int n) {
  const int stride = 128 * int(gridDim.x);
  for (int i = int(threadIdx.x) + 128 * int(blockIdx.x); i < n; i = i < n - stride ? i + stride : n)
    f(unsigned(i));
}

// The functor's body compiled as a separate (not inlined) function.
template <class F>
struct NoInline {
  F f;
  __device__ __noinline__ void call(unsigned i) const { f(i); }
  KOKKOS_INLINE_FUNCTION void operator()(int i) const { call(unsigned(i)); }
};

template <class Dist, int K, bool SharedHigh = true>
I::FillRowsFunctor<typename Dist::value_type, Dist, 0, unsigned, K, true, SharedHigh> make_functor(
    typename Dist::value_type* out, Dist dist, I::PhiloxKeySchedule key, unsigned nblocks) {
  I::FillRowsFunctor<typename Dist::value_type, Dist, 0, unsigned, K, true, SharedHigh> f;
  f.data = out;
  f.dist = dist;
  f.key = key;
  f.first_block = 0;
  f.origin_linear = 0;
  f.row_length = nblocks * Dist::elements_per_block;
  f.blocks_per_row = nblocks;
  f.row_extent[0] = 1;
  f.row_divider[0] = I::divider_t<unsigned>(1);
  f.memory_stride[0] = 0;
  f.global_stride[0] = 0;
  f.interior_items = (nblocks + K - 1) / K;
  f.counter_high = 0;
  f.per_row = I::divider_t<unsigned>(f.interior_items);
  return f;
}

// Copies of the library functor's body, differing in how the K blocks are scheduled.
// Mode 0: as the library. 1: threads whose K blocks are all whole take a branch-free
// path. 2: all K blocks' values computed before any (conditional) store. 3: as 1, with
// the vector store only.
template <class T, class Dist, int K, int Mode>
struct Lean : I::FillRowsFunctor<T, Dist, 0, unsigned, K, true, false> {
  KOKKOS_INLINE_FUNCTION void operator()(const unsigned item) const {
    constexpr int E = Dist::elements_per_block;
    const unsigned t = item;
    const std::uint64_t row_start = this->origin_linear;
    const std::uint64_t row_end = row_start + this->row_length;
    const std::uint64_t first_whole = (row_start + E - 1) / E;
    const std::uint64_t end_whole = row_end / E;
    if (t >= this->interior_items) {
      const std::uint64_t edge = t - this->interior_items;
      if (edge == 0 ? row_start % E != 0 : row_end % E != 0 && end_whole >= first_whole)
        this->fill_block(this->data, row_start,
                         first_whole - 1 + edge * (end_whole + 1 - first_whole));
      return;
    }
    const unsigned whole = end_whole > first_whole ? unsigned(end_whole - first_whole) : 0;
    T* const base = this->data + (first_whole * E - row_start);
    const bool aligned = Mode == 3 || I::block_aligned<T, E>(base);
    const std::uint64_t counter = this->first_block + first_whole;
    const unsigned stride = this->interior_items;
    if (Mode == 4 || Mode == 5) {  // the micro kernel's body; 5: with the 64-bit counter
      I::PhiloxBlock w[K];
#pragma unroll
      for (int j = 0; j < K; ++j)
        w[j] = Mode == 4 ? I::stream_block(this->key, t + j * stride)
                         : I::stream_block(this->key,
                                           counter + static_cast<std::uint64_t>(t + j * stride));
#pragma unroll
      for (int j = 0; j < K; ++j) {
        const unsigned b = t + j * stride;
        if (b < whole) {
          T v[E];
          this->dist(w[j], v);
          store<T, E>(this->data + size_t(b) * E, v, false);
        }
      }
      return;
    }
    if ((Mode == 1 || Mode == 3) && t + (K - 1) * stride < whole) {
      T values[K][E];
#pragma unroll
      for (int j = 0; j < K; ++j)
        this->dist(I::stream_block(this->key, counter + static_cast<std::uint64_t>(t + j * stride)),
                   values[j]);
#pragma unroll
      for (int j = 0; j < K; ++j)
        I::store_block<T, E>(base + static_cast<std::size_t>(t + j * stride) * E, values[j],
                             aligned);
      return;
    }
    if (Mode == 2) {
      T values[K][E];
#pragma unroll
      for (int j = 0; j < K; ++j)
        this->dist(I::stream_block(this->key, counter + static_cast<std::uint64_t>(t + j * stride)),
                   values[j]);
#pragma unroll
      for (int j = 0; j < K; ++j)
        if (t + j * stride < whole)
          I::store_block<T, E>(base + static_cast<std::size_t>(t + j * stride) * E, values[j],
                               aligned);
      return;
    }
    I::PhiloxBlock words[K];
#pragma unroll
    for (int j = 0; j < K; ++j)
      words[j] = I::stream_block(this->key, counter + static_cast<std::uint64_t>(t + j * stride));
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const unsigned b = t + j * stride;
      if (b < whole) {
        T* const dst = base + static_cast<std::size_t>(b) * E;
        T values[E] = {};
        this->dist(words[j], values);
        I::store_block<T, E>(dst, values, aligned);
      }
    }
  }
};

template <class F>
__global__ void __launch_bounds__(128) raw_lean(F f, unsigned n) {
  const unsigned i = blockIdx.x * 128 + threadIdx.x;
  if (i < n) f(i);
}

struct Result {
  const char* op;
  char shape[64];
  float ms;
  double ratio;
};

static float median_ms(const std::vector<float>& t) {
  std::vector<float> s = t;
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

template <class F>
float time_it(F f, int iters = 30) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 5; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < iters; ++i) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  return median_ms(t);
}

static std::vector<unsigned char> reference;
static int mismatches = 0;

template <class T>
void check(const char* op, const char* shape, T* d, size_t n, bool make_reference) {
  std::vector<unsigned char> h(n * sizeof(T));
  cudaMemcpy(h.data(), d, h.size(), cudaMemcpyDeviceToHost);
  if (make_reference) {
    reference = h;
  } else if (h != reference) {
    ++mismatches;
    printf("MISMATCH %s %s\n", op, shape);
  }
}

static bool only_lib = false;
static bool launch_variants = false;  // argv[1] contains "launch"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  only_lib = argc > 2;
  const size_t n = size_t(1) << 28;  // elements of 4 bytes
  float* buf;
  cudaMalloc(&buf, n * 8);
  const I::PhiloxKeySchedule key = I::philox_key_schedule(0x123456789abcdef0ull);
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  std::vector<Result> results;

  const float memset_ms = time_it([&] { cudaMemsetAsync(buf, 0, n * 4); });
  const double memset_gbps = n * 4 / (memset_ms * 1e6);
  printf("memset %.4f ms %.0f GB/s (SMs %d)\n", memset_ms, memset_gbps, sms);
  const float memset8_ms = time_it([&] { cudaMemsetAsync(buf, 0, n * 8); });

  auto report = [&](const char* op, const char* shape, float ms, size_t bytes) {
    const double gbps = bytes / (ms * 1e6);
    printf("%-10s %-28s %.4f ms %6.0f GB/s %.3f of memset\n", op, shape, ms, gbps,
           gbps / memset_gbps);
    fflush(stdout);
  };

  auto run_all = [&](const char* op, auto dist) {
    using Dist = decltype(dist);
    using T = typename Dist::value_type;
    constexpr int E = Dist::elements_per_block;
    const size_t elems = sizeof(T) == 8 ? n : n;
    const unsigned nblocks = unsigned(elems / E);
    T* out = reinterpret_cast<T*>(buf);
    const size_t bytes = elems * sizeof(T);
    bool first = true;
    auto strided_case = [&](auto k_tag, auto bs_tag, auto stream_tag) {
      constexpr int K = decltype(k_tag)::value;
      constexpr int BS = decltype(bs_tag)::value;
      constexpr bool S = decltype(stream_tag)::value;
      const unsigned items = (nblocks + K - 1) / K;
      const unsigned grid = (items + BS - 1) / BS;
      cudaMemset(out, 0xff, bytes);
      const float ms =
          time_it([&] { strided<Dist, K, BS, S><<<grid, BS>>>(out, dist, key, nblocks, items); });
      char shape[64];
      snprintf(shape, sizeof shape, "strided K=%d BS=%d%s", K, BS, S ? " cs" : "");
      report(op, shape, ms, bytes);
      check(op, shape, out, elems, first);
      first = false;
    };
    auto grid_case = [&](auto k_tag, auto bs_tag, int blocks_per_sm) {
      constexpr int K = decltype(k_tag)::value;
      constexpr int BS = decltype(bs_tag)::value;
      cudaMemset(out, 0xff, bytes);
      const unsigned grid = sms * blocks_per_sm;
      const float ms =
          time_it([&] { gridstride<Dist, K, BS, false><<<grid, BS>>>(out, dist, key, nblocks); });
      char shape[64];
      snprintf(shape, sizeof shape, "grid K=%d BS=%d x%d/SM", K, BS, blocks_per_sm);
      report(op, shape, ms, bytes);
      check(op, shape, out, elems, first);
    };
    using namespace std;
    {
      const auto f = make_functor<Dist, 4>(out, dist, key, nblocks);
      const unsigned items = f.interior_items;
      cudaMemset(out, 0xff, bytes);
      float ms = time_it([&] { raw_functor<<<(items + 127) / 128, 128>>>(f, items); });
      report(op, "library functor K=4, raw launch", ms, bytes);
      check(op, "library functor raw", out, elems, true);
      first = false;
      cudaMemset(out, 0xff, bytes);
      ms = time_it([&] {
        Kokkos::parallel_for(
            Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<int>>(0, int(items)), f);
      });
      report(op, "library functor K=4, Kokkos", ms, bytes);
      check(op, "library functor Kokkos", out, elems, false);
    }
    if (launch_variants) {
      // The same functor several ways (docs/performance.md, "Why it is built this way").
      // Each row poisons the buffer, times `launch` and checks the bytes against the reference.
      const auto f = make_functor<Dist, 4>(out, dist, key, nblocks);
      const int items = int(f.interior_items);
      auto row = [&](const char* name, auto launch, int launches = 1) {
        cudaMemset(out, 0xff, bytes);
        report(op, name, time_it(launch, launches == 1 ? 30 : 10) / launches, bytes);
        check(op, name, out, elems, false);
      };
      using NoBounds = Kokkos::LaunchBounds<>;
      auto kokkos_row = [&](const char* name, const auto& functor, int n, auto bounds) {
        using Policy = Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<int>, decltype(bounds)>;
        row(name, [&] { Kokkos::parallel_for(Policy(0, n), functor); });
      };
      kokkos_row("Kokkos LaunchBounds<128,1>", f, items, Kokkos::LaunchBounds<128, 1>{});
      kokkos_row("Kokkos LaunchBounds<256,1>", f, items, Kokkos::LaunchBounds<256, 1>{});
      kokkos_row("Kokkos LaunchBounds<512,1>", f, items, Kokkos::LaunchBounds<512, 1>{});
      kokkos_row("Kokkos LaunchBounds<128,8>", f, items, Kokkos::LaunchBounds<128, 8>{});
      // Ten launches between the events: the GPU never waits for the host, so this is the
      // kernels' own time (the rows above include each launch's host latency).
      row(
          "raw 128, 10 back to back /10",
          [&] {
            for (int r = 0; r < 10; ++r)
              raw_functor<<<(items + 127) / 128, 128>>>(f, unsigned(items));
          },
          10);
      row(
          "Kokkos, 10 back to back /10",
          [&] {
            for (int r = 0; r < 10; ++r)
              Kokkos::parallel_for(
                  Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<int>>(0, items), f);
          },
          10);
      row("raw 128 with Kokkos' loop", [&] { raw_loop<<<(items + 127) / 128, 128>>>(f, items); });
      const NoInline<decltype(f)> g{f};
      row("raw 128 loop, noinline body", [&] { raw_loop<<<(items + 127) / 128, 128>>>(g, items); });
      kokkos_row("Kokkos, noinline body", g, items, NoBounds{});
      kokkos_row("Kokkos LB<128,1>, noinline body", g, items, Kokkos::LaunchBounds<128, 1>{});
      // Other bodies through Kokkos: the lean variants, the 64-bit counter, K = 1, 2, 8.
      auto kokkos_lean = [&](auto mode, const char* name) {
        Lean<T, Dist, 4, decltype(mode)::value> lf;
        static_cast<I::FillRowsFunctor<T, Dist, 0, unsigned, 4, true, false>&>(lf) =
            make_functor<Dist, 4, false>(out, dist, key, nblocks);
        kokkos_row(name, lf, items, NoBounds{});
      };
      kokkos_lean(std::integral_constant<int, 1>{}, "Kokkos lean 1 branch-free bulk");
      kokkos_lean(std::integral_constant<int, 2>{}, "Kokkos lean 2 values first");
      kokkos_lean(std::integral_constant<int, 4>{}, "Kokkos lean 4 micro body");
      kokkos_lean(std::integral_constant<int, 5>{}, "Kokkos lean 5 micro + counter64");
      kokkos_row("Kokkos library K=4, 64-bit counter",
                 make_functor<Dist, 4, false>(out, dist, key, nblocks), items, NoBounds{});
      auto kokkos_k = [&](auto k_tag, const char* name) {
        const auto fk = make_functor<Dist, decltype(k_tag)::value>(out, dist, key, nblocks);
        kokkos_row(name, fk, int(fk.interior_items), NoBounds{});
      };
      kokkos_k(std::integral_constant<int, 1>{}, "Kokkos library K=1");
      kokkos_k(std::integral_constant<int, 2>{}, "Kokkos library K=2");
      kokkos_k(std::integral_constant<int, 8>{}, "Kokkos library K=8");
      row("library functor K=4, raw 256",
          [&] { raw_functor256<<<(items + 255) / 256, 256>>>(f, unsigned(items)); });
      return;
    }
    auto lean = [&](auto mode, const char* name) {
      using L = Lean<T, Dist, 4, decltype(mode)::value>;
      L f;
      static_cast<I::FillRowsFunctor<T, Dist, 0, unsigned, 4, true, false>&>(f) =
          make_functor<Dist, 4, false>(out, dist, key, nblocks);
      const unsigned items = f.interior_items;
      cudaMemset(out, 0xff, bytes);
      const float ms = time_it([&] { raw_lean<<<(items + 127) / 128, 128>>>(f, items); });
      report(op, name, ms, bytes);
      check(op, name, out, elems, false);
    };
    lean(std::integral_constant<int, 0>{}, "lean 0 library + unroll");
    lean(std::integral_constant<int, 1>{}, "lean 1 branch-free bulk");
    lean(std::integral_constant<int, 2>{}, "lean 2 values first");
    lean(std::integral_constant<int, 4>{}, "lean 4 micro body");
    lean(std::integral_constant<int, 5>{}, "lean 5 micro body + counter64");
    strided_case(std::integral_constant<int, 4>{}, std::integral_constant<int, 128>{},
                 std::false_type{});
    if (only_lib) return;
    strided_case(integral_constant<int, 1>{}, integral_constant<int, 128>{}, false_type{});
    strided_case(integral_constant<int, 4>{}, integral_constant<int, 128>{}, false_type{});
    strided_case(integral_constant<int, 4>{}, integral_constant<int, 128>{}, true_type{});
    strided_case(integral_constant<int, 2>{}, integral_constant<int, 256>{}, false_type{});
    strided_case(integral_constant<int, 4>{}, integral_constant<int, 256>{}, false_type{});
    strided_case(integral_constant<int, 8>{}, integral_constant<int, 128>{}, false_type{});
    strided_case(integral_constant<int, 8>{}, integral_constant<int, 256>{}, false_type{});
    strided_case(integral_constant<int, 16>{}, integral_constant<int, 256>{}, false_type{});
    strided_case(integral_constant<int, 4>{}, integral_constant<int, 512>{}, false_type{});
    grid_case(integral_constant<int, 4>{}, integral_constant<int, 256>{}, 8);
    grid_case(integral_constant<int, 4>{}, integral_constant<int, 512>{}, 4);
    grid_case(integral_constant<int, 2>{}, integral_constant<int, 256>{}, 8);
    grid_case(integral_constant<int, 8>{}, integral_constant<int, 256>{}, 8);
    grid_case(integral_constant<int, 4>{}, integral_constant<int, 128>{}, 16);
  };

  const char* only = argc > 1 ? argv[1] : "";
  launch_variants = strstr(only, "launch") != nullptr;
  auto want = [&](const char* op) { return !*only || strstr(only, op); };
  if (want("bits")) run_all("bits_u32", I::RandomBits<std::uint32_t>{});
  if (want("uniform")) run_all("uniform", I::StandardUniform<float>{});
  if (want("from_to")) {  // what uniform_(t, 0, 1) runs (make_uniform needs the compiled library)
    I::Uniform<float> d;
    d.from = 0.0f;
    d.range = 1.0f;
    d.below_to = 0x1.fffffep-1f;
    run_all("uniform01", d);
  }
  if (want("bernoulli")) {
    I::Bernoulli<float> d;
    d.threshold = I::bernoulli_threshold<float>(0.5);
    run_all("bernoulli", d);
  }
  if (want("normal")) {
    I::Normal<float> d;
    d.mean = 0.0f;
    d.stddev = 1.0f;
    run_all("normal", d);
  }
  if (want("f64")) {
    printf("memset 8 GiB-class for f64: %.4f ms\n", memset8_ms);
    run_all("uniform64", I::StandardUniform<double>{});
  }
  printf("mismatches: %d\n", mismatches);
  cudaFree(buf);
  return mismatches != 0;
}
