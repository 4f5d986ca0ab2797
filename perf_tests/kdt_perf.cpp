// kdt-perf: throughput of kokkos-dtensor's random ops against memset-class and copy-class
// ceilings and against other generators, on any Kokkos backend (docs/performance.md).
//
//   kdt-perf [--size N | --sizes N1,N2,...] [--iters K] [--warmup W] [--json FILE]
//            [--only name,name,...]
//            [--cpu-time]  (host backends: process CPU time instead of wall time)
// (stream_* records: user kernels drawing from kdt::reserve; pool_* and philox_pool_*:
// Random_Philox_Pool; docs/streams.md, docs/performance.md "In-kernel streams"; uniform_f16,
// normal_f16, dropout_f16 and the _bf16 ones where Kokkos' half_t / bhalf_t are 16-bit
// types (GPU builds), with vs_reference = elements per second against the _f32 op)
//   kdt-perf --check-curand      (CUDA builds with cuRAND: random_bits_ == curand() words)
//   kdt-perf --dump DIR          (every distribution as raw files, for cross-backend cmp;
//                                 *_f16, *_bf16: 2 bytes per element, the same in every build)
//
// Each op is run W times (warm-up), then K >= 20 times, each run fenced and timed alone;
// the median is reported. With several MPI ranks every rank times its own runs and the
// maximum over ranks of the median is reported (MPI_Allreduce MAX); rank 0 prints.
// GB/s = bytes moved / time, bytes = N * bytes_per_element (written, plus read for ops
// that read their input: dropout_, the copy ceiling). Records:
//   {"name","ms","gbps","ceiling","ceiling_gbps","ratio","bytes_per_element","backend",
//    "ranks","size"}  (ratio = gbps / ceiling_gbps; DTensor and layout records add
//    "vs_reference": against the local View, or the op on LayoutRight of the same shape).

#include <KokkosDTensor.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <impl/KokkosDTensor_FillDispatch.hpp>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

// The non-temporal fill ceiling below: x86-64 GCC/Clang builds with host backends only.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) &&                            \
    !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP) && !defined(KOKKOS_ENABLE_SYCL) && \
    !defined(KOKKOS_ENABLE_OPENMPTARGET)
#define KDT_PERF_STREAMING_FILL 1
#include <immintrin.h>
#else
#define KDT_PERF_STREAMING_FILL 0
#endif

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#if defined(KDT_PERF_HAVE_CURAND)
#include <curand.h>
#include <curand_kernel.h>
#endif
#endif

namespace kdt = KokkosDTensor;

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using HostSpace = Kokkos::DefaultHostExecutionSpace;
constexpr bool device_is_host = Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible;

int g_rank = 0, g_ranks = 1;
// --cpu-time: host backends time with the process CPU clock instead of the wall clock, so
// that a machine shared with other jobs (descheduled time) disturbs the figures less.
bool g_cpu_time = false;

double now_seconds() {
  timespec t;
  clock_gettime(g_cpu_time ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Options {
  std::vector<std::int64_t> sizes;
  int iters = 20;
  int warmup = 3;
  std::string json;
  std::vector<std::string> only;
  bool check_curand = false;
  std::string dump;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::int64_t parse_size(const std::string& s) {
  // Accepts 268435456, 2^28, 1e6.
  const auto caret = s.find('^');
  if (caret != std::string::npos)
    return static_cast<std::int64_t>(
        std::llround(std::pow(std::stod(s.substr(0, caret)), std::stod(s.substr(caret + 1)))));
  return static_cast<std::int64_t>(std::llround(std::stod(s)));
}

struct Record {
  std::string name;
  double ms = 0, gbps = 0, ceiling_gbps = 0;
  std::string ceiling;
  int bytes_per_element = 0;
  std::int64_t size = 0;
  double vs_reference = -1;  // DTensor records: against the local View; layouts: LayoutRight
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median milliseconds of `op` over `iters` fenced runs after `warmup` runs, max over ranks.
double time_op(const std::function<void()>& op, const Options& opt) {
  for (int i = 0; i < opt.warmup; ++i) op();
  Kokkos::fence();
  std::vector<double> ms;
  for (int i = 0; i < opt.iters; ++i) {
    Kokkos::fence();
    const double start = now_seconds();
    op();
    Kokkos::fence();
    ms.push_back((now_seconds() - start) * 1e3);
  }
  double local = median(ms), global = local;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global;
}

bool wanted(const Options& opt, const std::string& name) {
  if (opt.only.empty()) return true;
  return std::find(opt.only.begin(), opt.only.end(), name) != opt.only.end();
}

// Whether a wanted layout record is divided by `name` (run_layouts): `<op>@right2d` for every
// `<op>@...`, `uniform_f32@right_S` for `uniform_f32@left_S`, deep_copy_column for the column.
bool reference_of_wanted(const Options& opt, const std::string& name) {
  for (const auto& w : opt.only) {
    const auto at = w.find('@');
    if (at == std::string::npos) continue;
    if (name == w.substr(0, at) + "@right2d") return true;
    if (w.compare(0, 17, "uniform_f32@left_") == 0 && name == "uniform_f32@right_" + w.substr(17))
      return true;
    if (w == "uniform_f32@column" && name == "deep_copy_column") return true;
    for (const std::string suffix : {"_f16", "_bf16"})  // their vs_reference: the f32 op
      if (w.size() > suffix.size() &&
          w.compare(w.size() - suffix.size(), suffix.size(), suffix) == 0 &&
          name == w.substr(0, w.size() - suffix.size()) + "_f32")
        return true;
  }
  return false;
}

#if defined(KOKKOS_ENABLE_CUDA) && defined(KDT_PERF_HAVE_CURAND)
// The stream_* kernels written with cuRAND's device API: one Philox subsequence per element,
// `draws` floats from curand_uniform4 summed (draws = 1: the first float alone). Plain CUDA
// launches: the same lambdas through Kokkos::parallel_for failed at launch with "invalid
// resource handle" on the H200 (2026-12-01, not understood).
__global__ void curand_kernel_uniform(unsigned long long seed, long long n, int draws, float* v) {
  const long long L = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (L >= n) return;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, static_cast<unsigned long long>(L), 0, &state);
  if (draws == 1) {
    v[L] = curand_uniform4(&state).x;
    return;
  }
  float sum = 0.0f;
  for (int k = 0; k < draws / 4; ++k) {
    const float4 r = curand_uniform4(&state);
    sum += r.x + r.y + r.z + r.w;
  }
  v[L] = sum;
}
#endif

// A fill by non-temporal stores (vmovntps) on host spaces, x86-64 GCC/Clang: the ceiling of a
// fill whose stores do not read each cache line first. deep_copy's fill and the library's
// host fills use ordinary stores, which do (docs/performance.md, "Why it is built this way").
#if KDT_PERF_STREAMING_FILL
struct StreamingFill {
  float* data;
  std::int64_t n;
  static constexpr std::int64_t chunk = 2048;  // floats per work item
  __attribute__((target("avx"))) void operator()(std::int64_t item) const {
    std::int64_t i = item * chunk;
    const std::int64_t end = std::min(i + chunk, n);
    for (; i < end && reinterpret_cast<std::uintptr_t>(data + i) % 32 != 0; ++i) data[i] = 1.5f;
    for (; i + 8 <= end; i += 8) _mm256_stream_ps(data + i, _mm256_set1_ps(1.5f));
    for (; i < end; ++i) data[i] = 1.5f;
    _mm_sfence();
  }
};
#endif

// A fill of ordinary stores in chunks of 2048 floats that host threads take dynamically, as
// the library's host fills do: on a CPU whose cores run at uneven speeds (a VM), deep_copy's
// static split waits for the slowest thread and under-states the memory's fill rate.
struct BalancedFill {
  float* data;
  std::int64_t n;
  static constexpr std::int64_t chunk = 2048;  // floats per work item
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t item) const {
    const std::int64_t end = item * chunk + chunk < n ? item * chunk + chunk : n;
    for (std::int64_t i = item * chunk; i < end; ++i) data[i] = 1.5f;
  }
};

// ---- layouts ------------------------------------------------------------------------------

// The op `dist` on `view` as the block `box` of its global tensor, the generator advanced past
// the global tensor's words: what a random op on a View (whole box) or a DTensor shard does.
template <class View, class Dist>
std::function<void()> fill_box(const View& view, const Dist& dist, kdt::Generator& gen,
                               const kdt::Impl::GlobalBox& box) {
  return [view, dist, &gen, box] {
    const kdt::RNGState state = gen.get_state();
    std::uint64_t count = 1;
    for (int d = 0; d < box.rank; ++d) count *= static_cast<std::uint64_t>(box.global_extent[d]);
    const std::uint64_t next =
        kdt::Impl::offset_after(state, Dist::words_per_element, count, "kdt-perf");
    kdt::Impl::fill_random(Space(), view, dist, state, box);
    gen.set_state(kdt::RNGState{state.seed, next});
  };
}

// Every op on the Views users have, in records `<op>@<layout>` whose vs_reference is the
// ratio to `<op>@right2d` (a LayoutRight View of the same shape, R x C with R * C ~ n):
// left2d (LayoutLeft), left2d_odd (LayoutLeft, R - 1 x C + 1; left2d_odd0 R - 1 x C: a column
// extent not divisible by 4, rows on blocks; left2d_odd1 R x C + 1: rows inside blocks, columns
// aligned), left3d (LayoutLeft, R x 4 x C / 4), stride2d (a LayoutStride subview of a LayoutLeft
// View), and the shard at mesh coordinate 1 (Shard(0): global 2R x C) or (1, 1) (Shard(1), Shard(0)
// on a 2x2 mesh: global 2R x 2C) of a DTensor with the default layout (LayoutLeft on GPUs); 16-bit
// uniform_, normal_ and dropout_ where half_t / bhalf_t are 16-bit types. Then uniform_
// f32 on 3 x n/3 and n/3 x 3 in both layouts (against LayoutRight of the same shape), and on
// a View with no unit stride (a column of a LayoutRight n/8 x 8 matrix) against deep_copy.
template <class Add>
void run_layouts(std::int64_t n, const std::string& fill, kdt::Generator& gen, const Add& add,
                 std::vector<Record>& out, std::map<std::string, double>& gbps_of) {
  std::int64_t rows = 1;
  while (rows * rows * 4 <= n) rows *= 2;
  const std::int64_t cols = std::max<std::int64_t>(4, n / rows);
  const auto ops_on = [&](const std::string& layout, const auto& view,
                          const kdt::Impl::GlobalBox& box) {
    using T = typename std::decay_t<decltype(view)>::value_type;
    const std::int64_t elements = static_cast<std::int64_t>(view.size());
    const auto record = [&](const char* op, const auto& dist) {
      using Dist = std::decay_t<decltype(dist)>;
      add(std::string(op) + "@" + layout, Dist::reads_input ? 2 * int(sizeof(T)) : int(sizeof(T)),
          Dist::reads_input ? "copy_ceiling" : fill, elements, fill_box(view, dist, gen, box));
    };
    if constexpr (std::is_same<T, float>::value) {
      record("uniform_f32", kdt::Impl::make_uniform<float>(0, 1, "kdt-perf"));
      record("normal_f32", kdt::Impl::make_normal<float>(0, 1, "kdt-perf"));
      record("log_normal_f32", kdt::Impl::make_log_normal<float>(0, 0.25, "kdt-perf"));
      record("exponential_f32", kdt::Impl::make_exponential<float>(1, "kdt-perf"));
      record("trunc_normal_f32", kdt::Impl::make_trunc_normal<float>(0, 1, -2, 2, "kdt-perf"));
      record("bernoulli_f32", kdt::Impl::make_bernoulli<float>(0.5, "kdt-perf"));
      Kokkos::deep_copy(view, 1.0f);
      record("dropout_f32", kdt::Impl::make_dropout<float>(0.1, "kdt-perf"));
    } else if constexpr (std::is_same<T, double>::value) {
      record("uniform_f64", kdt::Impl::make_uniform<double>(0, 1, "kdt-perf"));
      record("normal_f64", kdt::Impl::make_normal<double>(0, 1, "kdt-perf"));
    } else if constexpr (sizeof(T) == 2) {  // half_t, bhalf_t where they are 16-bit
      const std::string type = kdt::Impl::ReducedFloatFormat<T>::bfloat16 ? "_bf16" : "_f16";
      record(("uniform" + type).c_str(), kdt::Impl::make_uniform<T>(0, 1, "kdt-perf"));
      record(("normal" + type).c_str(), kdt::Impl::make_normal<T>(0, 1, "kdt-perf"));
      Kokkos::deep_copy(view, T(1.0f));
      record(("dropout" + type).c_str(), kdt::Impl::make_dropout<T>(0.1, "kdt-perf"));
    } else if constexpr (std::is_same<T, std::uint32_t>::value) {
      record("bits_u32", kdt::Impl::make_random_bits<std::uint32_t>("kdt-perf"));
    } else {
      record("randint_i32", kdt::Impl::make_randint<std::int32_t>(0, 1000, "kdt-perf"));
    }
  };
  const auto layouts_of = [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    using Right = Kokkos::View<T**, Kokkos::LayoutRight, Space>;
    using Left = Kokkos::View<T**, Kokkos::LayoutLeft, Space>;
    {
      const Right right("right2d", rows, cols);
      ops_on("right2d", right, kdt::Impl::whole_view_box(right));
    }
    {
      const Left left("left2d", rows, cols);
      ops_on("left2d", left, kdt::Impl::whole_view_box(left));
    }
    {
      const Left left("left2d_odd", rows - 1, cols + 1);
      ops_on("left2d_odd", left, kdt::Impl::whole_view_box(left));
    }
    {
      const Left left("left2d_odd0", rows - 1, cols);
      ops_on("left2d_odd0", left, kdt::Impl::whole_view_box(left));
    }
    {
      const Left left("left2d_odd1", rows, cols + 1);
      ops_on("left2d_odd1", left, kdt::Impl::whole_view_box(left));
    }
    {
      const Kokkos::View<T***, Kokkos::LayoutLeft, Space> left("left3d", rows, 4, cols / 4);
      ops_on("left3d", left, kdt::Impl::whole_view_box(left));
    }
    {
      const Left base("stride2d", rows + 2, cols + 2);
      const auto sub = Kokkos::subview(base, Kokkos::make_pair<std::int64_t>(1, rows + 1),
                                       Kokkos::make_pair<std::int64_t>(1, cols + 1));
      ops_on("stride2d", sub, kdt::Impl::whole_view_box(sub));
    }
    {
      const Kokkos::View<T**, Space> local("dtensor", rows, cols);
      ops_on("dtensor_default_shard0", local, kdt::Impl::box_2d(2 * rows, cols, rows, 0));
      ops_on("dtensor_default_shard1", local, kdt::Impl::box_2d(2 * rows, 2 * cols, rows, cols));
    }
  };
  struct f32 {
    using type = float;
  };
  struct f64 {
    using type = double;
  };
  struct u32 {
    using type = std::uint32_t;
  };
  struct i32 {
    using type = std::int32_t;
  };
  layouts_of(f32{});
  layouts_of(f64{});
  layouts_of(u32{});
  layouts_of(i32{});
#if KOKKOSDTENSOR_HALF_T_IS_16BIT
  struct f16 {
    using type = Kokkos::Experimental::half_t;
  };
  layouts_of(f16{});
#endif
#if KOKKOSDTENSOR_BHALF_T_IS_16BIT
  struct bf16 {
    using type = Kokkos::Experimental::bhalf_t;
  };
  layouts_of(bf16{});
#endif
  for (auto& r : out) {
    const auto at = r.name.find('@');
    if (at != std::string::npos)
      r.vs_reference = r.gbps / gbps_of[r.name.substr(0, at) + "@right2d"];
  }

  // Extreme aspect ratios and no unit stride: uniform_ f32.
  const auto uniform = kdt::Impl::make_uniform<float>(0, 1, "kdt-perf");
  const std::int64_t long_side = n / 3;
  for (const bool tall : {false, true}) {
    const std::int64_t r = tall ? long_side : 3, c = tall ? 3 : long_side;
    const std::string shape = tall ? "Nx3" : "3xN";
    const Kokkos::View<float**, Kokkos::LayoutRight, Space> right("right", r, c);
    const Kokkos::View<float**, Kokkos::LayoutLeft, Space> left("left", r, c);
    add("uniform_f32@right_" + shape, 4, fill, r * c,
        fill_box(right, uniform, gen, kdt::Impl::whole_view_box(right)));
    add("uniform_f32@left_" + shape, 4, fill, r * c,
        fill_box(left, uniform, gen, kdt::Impl::whole_view_box(left)));
  }
  {
    const Kokkos::View<float**, Kokkos::LayoutRight, Space> matrix("matrix", n / 8, 8);
    const auto column = Kokkos::subview(matrix, Kokkos::ALL, 0);
    add("deep_copy_column", 4, "", n / 8, [&] { Kokkos::deep_copy(column, 1.5f); });
    add("uniform_f32@column", 4, "deep_copy_column", n / 8,
        fill_box(column, uniform, gen, kdt::Impl::whole_view_box(column)));
  }
  for (auto& r : out) {
    const auto at = r.name.find("@left_");
    if (at != std::string::npos)
      r.vs_reference = r.gbps / gbps_of["uniform_f32@right_" + r.name.substr(at + 6)];
  }
}

// ---- the benchmark at one size ------------------------------------------------------------

void run_size(std::int64_t n, const Options& opt, std::vector<Record>& records) {
  std::vector<Record> out;
  std::map<std::string, double> gbps_of;
  const auto add = [&](const std::string& name, int bytes_per_element, const std::string& ceiling,
                       std::int64_t elements, const std::function<void()>& op) {
    // Ceilings and the local-View reference always run: other records are divided by them.
    if (!wanted(opt, name) && !reference_of_wanted(opt, name) &&
        !(name == "fill_ceiling" || name == "copy_ceiling" || name == "cuda_memset" ||
          name == "streaming_fill_ceiling" || name == "balanced_fill_ceiling" ||
          name == "uniform_f32_local_2d"))
      return;
    Record r;
    r.name = name;
    r.size = elements;
    r.bytes_per_element = bytes_per_element;
    r.ceiling = ceiling;
    r.ms = time_op(op, opt);
    r.gbps = static_cast<double>(elements) * bytes_per_element / (r.ms * 1e-3) / 1e9;
    gbps_of[name] = r.gbps;
    out.push_back(r);
  };

  Kokkos::View<float*, Space> f32("f32", n), f32b("f32b", n);
  Kokkos::deep_copy(f32b, 1.0f);
  kdt::Generator gen(20261130);

  // Ceilings first.
  add("fill_ceiling", 4, "", n, [&] { Kokkos::deep_copy(f32, 1.5f); });
  add("copy_ceiling", 8, "", n, [&] { Kokkos::deep_copy(f32, f32b); });
  if (device_is_host) {
    add("balanced_fill_ceiling", 4, "", n, [&] {
      Kokkos::parallel_for("kdt_perf::balanced_fill",
                           Kokkos::RangePolicy<Space, Kokkos::Schedule<Kokkos::Dynamic>,
                                               Kokkos::IndexType<std::int64_t>>(
                               0, (n + BalancedFill::chunk - 1) / BalancedFill::chunk),
                           BalancedFill{f32.data(), n});
    });
  }
#if KDT_PERF_STREAMING_FILL
  add("streaming_fill_ceiling", 4, "", n, [&] {
    Kokkos::parallel_for("kdt_perf::streaming_fill",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(
                             0, (n + StreamingFill::chunk - 1) / StreamingFill::chunk),
                         StreamingFill{f32.data(), n});
  });
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  if (!device_is_host) {
    add("cuda_memset", 4, "", n, [&] {
      cudaMemsetAsync(f32.data(), 0, sizeof(float) * static_cast<std::size_t>(n),
                      Space().cuda_stream());
    });
  }
#endif

  // The memset-class ceiling the fills are held to: cudaMemset where it exists (Kokkos'
  // deep_copy of a scalar measured 0.19x of it on the H200), else the faster of the deep_copy
  // fill and the balanced one.
  std::string fill = "fill_ceiling";
  if (gbps_of.count("balanced_fill_ceiling") &&
      gbps_of["balanced_fill_ceiling"] > gbps_of["fill_ceiling"])
    fill = "balanced_fill_ceiling";
#if defined(KOKKOS_ENABLE_CUDA)
  if (!device_is_host) fill = "cuda_memset";
#endif

  // The ops, through the public API on plain Views.
  add("uniform_f32", 4, fill, n, [&] { kdt::uniform_(f32, 0.0, 1.0, gen); });
  add("normal_f32", 4, fill, n, [&] { kdt::normal_(f32, 0.0, 1.0, gen); });
  add("log_normal_f32", 4, fill, n, [&] { kdt::log_normal_(f32, 0.0, 0.25, gen); });
  add("exponential_f32", 4, fill, n, [&] { kdt::exponential_(f32, 1.0, gen); });
  add("geometric_f32", 4, fill, n, [&] { kdt::geometric_(f32, 0.3, gen); });
  add("trunc_normal_f32", 4, fill, n, [&] { kdt::trunc_normal_(f32, 0.0, 1.0, -2.0, 2.0, gen); });
  add("bernoulli_f32", 4, fill, n, [&] { kdt::bernoulli_(f32, 0.5, gen); });
  Kokkos::deep_copy(f32, 1.0f);
  add("dropout_f32", 8, "copy_ceiling", n, [&] { kdt::dropout_(f32, 0.1, gen); });
  {
    Kokkos::View<double*, Space> f64("f64", n);
    add("uniform_f64", 8, fill, n, [&] { kdt::uniform_(f64, 0.0, 1.0, gen); });
    add("normal_f64", 8, fill, n, [&] { kdt::normal_(f64, 0.0, 1.0, gen); });
    add("log_normal_f64", 8, fill, n, [&] { kdt::log_normal_(f64, 0.0, 0.25, gen); });
    add("exponential_f64", 8, fill, n, [&] { kdt::exponential_(f64, 1.0, gen); });
    add("geometric_f64", 8, fill, n, [&] { kdt::geometric_(f64, 0.3, gen); });
    add("trunc_normal_f64", 8, fill, n, [&] { kdt::trunc_normal_(f64, 0.0, 1.0, -2.0, 2.0, gen); });
  }
  {
    Kokkos::View<std::uint32_t*, Space> u32("u32", n);
    add("bits_u32", 4, fill, n, [&] { kdt::random_bits_(u32, gen); });
#if defined(KOKKOS_ENABLE_CUDA)
    // cudaMemset in bits_u32's own allocation: bits_u32 against it tells the kernel's speed
    // from the allocation's (docs/performance.md, "Known gaps").
    if (!device_is_host) {
      add("cuda_memset_bits_buffer", 4, "", n, [&] {
        cudaMemsetAsync(u32.data(), 0, sizeof(std::uint32_t) * static_cast<std::size_t>(n),
                        Space().cuda_stream());
      });
    }
#endif
  }
  {
    // The same op in the allocation that the ceiling and uniform_f32 use: tells an
    // allocation's speed from the kernel's (bits_u32 on the H200, docs/performance.md).
    Kokkos::View<std::uint32_t*, Space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> u32(
        reinterpret_cast<std::uint32_t*>(f32.data()), n);
    add("bits_u32_ceiling_buffer", 4, fill, n, [&] { kdt::random_bits_(u32, gen); });
  }
  {
    Kokkos::View<std::int32_t*, Space> i32("i32", n);
    add("randint_i32", 4, fill, n, [&] { kdt::randint_(i32, 0, 1000, gen); });
    add("geometric_i32", 4, fill, n, [&] { kdt::geometric_(i32, 0.3, gen); });
  }
  {
    Kokkos::View<std::int64_t*, Space> i64("i64", n);
    add("randint_i64", 8, fill, n, [&] { kdt::randint_(i64, 0, 1000, gen); });
  }
  // half_t and bhalf_t (issue 29), where Kokkos makes them 16-bit types: 2 bytes per element
  // (4 read and written for dropout_); vs_reference = elements per second against the f32 op.
  const auto reduced_records = [&](auto zero, const std::string& suffix) {
    using T = decltype(zero);
    Kokkos::View<T*, Space> v("v16", n);
    add("uniform_" + suffix, 2, fill, n, [&] { kdt::uniform_(v, 0.0, 1.0, gen); });
    add("normal_" + suffix, 2, fill, n, [&] { kdt::normal_(v, 0.0, 1.0, gen); });
    Kokkos::deep_copy(v, T(1.0f));
    add("dropout_" + suffix, 4, "copy_ceiling", n, [&] { kdt::dropout_(v, 0.1, gen); });
  };
  (void)reduced_records;
#if KOKKOSDTENSOR_HALF_T_IS_16BIT
  reduced_records(Kokkos::Experimental::half_t(), "f16");
#endif
#if KOKKOSDTENSOR_BHALF_T_IS_16BIT
  reduced_records(Kokkos::Experimental::bhalf_t(), "bf16");
#endif
  if (!KOKKOSDTENSOR_HALF_T_IS_16BIT && !KOKKOSDTENSOR_BHALF_T_IS_16BIT && g_rank == 0 &&
      (wanted(opt, "uniform_f16") || wanted(opt, "uniform_bf16")) && !opt.only.empty())
    std::printf("kdt-perf: half_t and bhalf_t are float in this build: no f16/bf16 records\n");
  // The generic kernel (before the fast paths), for comparison.
  {
    const auto dist = kdt::Impl::make_uniform<float>(0, 1, "kdt-perf");
    add("uniform_f32_generic", 4, fill, n, [&] {
      kdt::Impl::fill_random_with<kdt::Impl::FillPath::generic>(Space(), f32, dist, gen.get_state(),
                                                                kdt::Impl::whole_view_box(f32));
    });
    const auto normal = kdt::Impl::make_normal<float>(0, 1, "kdt-perf");
    add("normal_f32_generic", 4, fill, n, [&] {
      kdt::Impl::fill_random_with<kdt::Impl::FillPath::generic>(
          Space(), f32, normal, gen.get_state(), kdt::Impl::whole_view_box(f32));
    });
  }

  // DTensor shards on a simulated 2x2 mesh: local [R, C], R * C ~ n. The rank at mesh
  // coordinate (1, 1) of a (Shard(0), Shard(1)) tensor of global shape [2R, 2C] fills the
  // box origin (R, C): rows of C consecutive L, separated by 2C ("shard1"). A Shard(0)
  // tensor of global shape [2R, C] at coordinate 1 fills origin (R, 0): one run of L
  // ("shard0"). Both against uniform_f32 on a plain View of the local shape [R, C].
  {
    std::int64_t cols = 1;
    while (cols * cols * 4 <= n) cols *= 2;
    const std::int64_t rows = std::max<std::int64_t>(1, n / cols);
    Kokkos::View<float**, Kokkos::LayoutRight, Space> local("local", rows, cols);
    const auto dist = kdt::Impl::make_uniform<float>(0, 1, "kdt-perf");
    const std::int64_t local_n = rows * cols;
    add("uniform_f32_local_2d", 4, fill, local_n, [&] { kdt::uniform_(local, 0.0, 1.0, gen); });
    add("dtensor_uniform_f32_shard0", 4, fill, local_n,
        fill_box(local, dist, gen, kdt::Impl::box_2d(2 * rows, cols, rows, 0)));
    add("dtensor_uniform_f32_shard1", 4, fill, local_n,
        fill_box(local, dist, gen, kdt::Impl::box_2d(2 * rows, 2 * cols, rows, cols)));
    for (auto& r : out) {
      if (r.name.rfind("dtensor_", 0) == 0)
        r.vs_reference = r.gbps / gbps_of["uniform_f32_local_2d"];
    }
  }

  run_layouts(n, fill, gen, add, out, gbps_of);

  // Anchors.
  {
    Kokkos::Random_XorShift64_Pool<Space> pool(20261130);
    add("kokkos_xorshift64_pool_uniform_f32", 4, fill, n,
        [&] { Kokkos::fill_random(f32, pool, 0.0f, 1.0f); });
  }
  if (device_is_host) {
    std::mt19937 engine(20261130u);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    float* data = reinterpret_cast<float*>(f32.data());
    add("std_mt19937_uniform_f32", 4, fill, n, [&] {
      for (std::int64_t i = 0; i < n; ++i) data[i] = uniform(engine);
    });
  }
  // In-kernel streams (docs/streams.md): a user kernel drawing from reserve() against the op
  // on the same View; 16 draws per element summed (one float written per element, 16 random
  // words consumed: GB/s counts the written bytes); Kokkos::fill_random with
  // Random_Philox_Pool against Random_XorShift64_Pool; pool construction.
  {
    add("stream_uniform_f32", 4, fill, n, [&] {
      const auto stream = kdt::reserve(gen, static_cast<std::uint64_t>(n), 1);
      const auto v = f32;
      Kokkos::parallel_for(
          "kdt-perf::stream_uniform_f32",
          Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
          KOKKOS_LAMBDA(std::int64_t L) { v(L) = stream.element(L).uniform<float>(); });
    });
    add("stream_16_uniform_f32_sum", 4, fill, n, [&] {
      const auto stream = kdt::reserve(gen, static_cast<std::uint64_t>(n), 16);
      const auto v = f32;
      Kokkos::parallel_for(
          "kdt-perf::stream_16_uniform_f32_sum",
          Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
          KOKKOS_LAMBDA(std::int64_t L) {
            kdt::ElementDraws draws = stream.element(L);
            float sum = 0.0f;
            for (int k = 0; k < 16; ++k) sum += draws.uniform<float>();
            v(L) = sum;
          });
    });
    // The same 16 draws as 4 uniform4 (cuRAND's curand_uniform4 shape: one block per call).
    add("stream_16x4_uniform_f32_sum", 4, fill, n, [&] {
      const auto stream = kdt::reserve(gen, static_cast<std::uint64_t>(n), 16);
      const auto v = f32;
      Kokkos::parallel_for(
          "kdt-perf::stream_16x4_uniform_f32_sum",
          Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
          KOKKOS_LAMBDA(std::int64_t L) {
            kdt::ElementDraws draws = stream.element(L);
            float sum = 0.0f;
            for (int k = 0; k < 4; ++k) {
              const auto u = draws.uniform4();
              sum += u[0];
              sum += u[1];
              sum += u[2];
              sum += u[3];
            }
            v(L) = sum;
          });
    });
#if defined(KOKKOS_ENABLE_CUDA) && defined(KDT_PERF_HAVE_CURAND)
    // The same two kernels with cuRAND's device API (a launch error skips the record).
    if (!device_is_host) {
      for (const int draws : {1, 16}) {
        const auto launch = [&] {
          curand_kernel_uniform<<<static_cast<unsigned>((n + 255) / 256), 256, 0,
                                  Space().cuda_stream()>>>(20261130ull, n, draws, f32.data());
        };
        launch();
        const cudaError_t err = cudaDeviceSynchronize();
        if (err != cudaSuccess) {
          if (g_rank == 0)
            std::printf("curand_kernel (draws %d) skipped: %s\n", draws, cudaGetErrorString(err));
          cudaGetLastError();
          continue;
        }
        add(draws == 1 ? "curand_kernel_uniform_f32" : "curand_kernel_16_uniform_f32_sum", 4, fill,
            n, launch);
      }
    }
#endif
    kdt::Random_Philox_Pool<Space> philox_pool(20261130);
    add("philox_pool_uniform_f32", 4, fill, n,
        [&] { Kokkos::fill_random(f32, philox_pool, 0.0f, 1.0f); });
    // Construction: the device's concurrency, and n states. elements = states, 8 bytes each.
    const int concurrency = Space().concurrency();
    add("pool_init_philox_concurrency", 8, "", concurrency,
        [&] { kdt::Random_Philox_Pool<Space> p(20261130); });
    add("pool_init_xorshift64_concurrency", 8, "", concurrency,
        [&] { Kokkos::Random_XorShift64_Pool<Space> p(20261130); });
    // What any pool with per-state device memory pays: the allocation (and its release) of
    // the Philox pool's counters, bare and zeroed.
    const auto counters = [&] {
      return Kokkos::View<std::uint64_t*, Space>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "a"),
          2 * static_cast<std::size_t>(concurrency));
    };
    add("pool_init_floor_alloc_concurrency", 8, "", concurrency, [&] { counters(); });
    add("pool_init_floor_alloc_zero_concurrency", 8, "", concurrency,
        [&] { Kokkos::deep_copy(counters(), std::uint64_t(0)); });
    const int states = static_cast<int>(std::min<std::int64_t>(n, 1 << 30));
    add("pool_init_philox_n", 8, "", states,
        [&] { kdt::Random_Philox_Pool<Space> p(20261130, states); });
    add("pool_init_xorshift64_n", 8, "", states, [&] {
      Kokkos::Random_XorShift64_Pool<Space> p;
      p.init(20261130, states);
    });
  }
#if defined(KOKKOS_ENABLE_CUDA) && defined(KDT_PERF_HAVE_CURAND)
  if (!device_is_host) {
    for (int dynamic = 0; dynamic < 2; ++dynamic) {
      curandGenerator_t g;
      curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10);
      curandSetPseudoRandomGeneratorSeed(g, 20261130ull);
      curandSetStream(g, Space().cuda_stream());
      if (dynamic) curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DYNAMIC);
      const std::string tag = dynamic ? "curand_philox_dynamic_" : "curand_philox_";
      add(tag + "uniform_f32", 4, fill, n,
          [&] { curandGenerateUniform(g, f32.data(), static_cast<std::size_t>(n)); });
      add(tag + "normal_f32", 4, fill, n & ~std::int64_t(1), [&] {
        curandGenerateNormal(g, f32.data(), static_cast<std::size_t>(n & ~std::int64_t(1)), 0.0f,
                             1.0f);
      });
      curandDestroyGenerator(g);
    }
  }
#endif

  std::map<std::string, double> ceiling_of;
  for (auto& r : out) ceiling_of[r.name] = r.gbps;
  for (auto& r : out) {
    r.ceiling_gbps = r.ceiling.empty() ? r.gbps : ceiling_of[r.ceiling];
    // f16/bf16 records: elements per second against the f32 op's (ms of f32 / ms of 16-bit).
    for (const char* suffix : {"_f16", "_bf16"}) {
      const auto at = r.name.rfind(suffix);
      if (at == std::string::npos || at + std::strlen(suffix) != r.name.size()) continue;
      for (const auto& f : out)
        if (f.name == r.name.substr(0, at) + "_f32") r.vs_reference = f.ms / r.ms;
    }
    if (wanted(opt, r.name)) records.push_back(r);
  }
}

std::string backend_name() { return Space::name(); }

void print_records(const std::vector<Record>& records) {
  if (g_rank != 0) return;
  std::printf("%-40s %12s %10s %10s %9s %7s %9s\n", "name", "size", "ms", "GB/s", "ceiling",
              "ratio", "vs_ref");
  for (const auto& r : records) {
    std::printf("%-40s %12lld %10.4f %10.2f %9.2f %7.3f", r.name.c_str(),
                static_cast<long long>(r.size), r.ms, r.gbps, r.ceiling_gbps,
                r.gbps / r.ceiling_gbps);
    if (r.vs_reference >= 0) std::printf(" %9.3f", r.vs_reference);
    std::printf("\n");
  }
  std::fflush(stdout);
}

void write_json(const std::vector<Record>& records, const std::string& file) {
  if (g_rank != 0 || file.empty()) return;
  std::ofstream out(file);
  out << "[\n";
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    char buf[1024];
    std::snprintf(buf, sizeof(buf),
                  "  {\"name\": \"%s\", \"ms\": %.6f, \"gbps\": %.3f, \"ceiling\": \"%s\", "
                  "\"ceiling_gbps\": %.3f, \"ratio\": %.4f, \"bytes_per_element\": %d, "
                  "\"backend\": \"%s\", \"ranks\": %d, \"size\": %lld",
                  r.name.c_str(), r.ms, r.gbps,
                  r.ceiling.empty() ? r.name.c_str() : r.ceiling.c_str(), r.ceiling_gbps,
                  r.gbps / r.ceiling_gbps, r.bytes_per_element, backend_name().c_str(), g_ranks,
                  static_cast<long long>(r.size));
    out << buf;
    if (r.vs_reference >= 0) {
      std::snprintf(buf, sizeof(buf), ", \"vs_reference\": %.4f", r.vs_reference);
      out << buf;
    }
    out << "}" << (i + 1 < records.size() ? "," : "") << "\n";
  }
  out << "]\n";
}

// ---- --check-curand ---------------------------------------------------------------------

#if defined(KOKKOS_ENABLE_CUDA) && defined(KDT_PERF_HAVE_CURAND)
// Thread t: curand() after curand_init(seed, 0, offset + t) (word offset + t of the stream),
// and thread 0 also the next `run` words of that state (consecutive words).
__global__ void curand_words(unsigned long long seed, unsigned long long offset, int n,
                             unsigned int* words, int run, unsigned int* consecutive) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, 0ull, offset + static_cast<unsigned long long>(t), &state);
  words[t] = curand(&state);
  if (t == 0) {
    consecutive[0] = words[0];
    for (int i = 1; i < run; ++i) consecutive[i] = curand(&state);
  }
}

int check_curand() {
  const std::uint64_t seeds[] = {
      0ull, 1ull, 42ull, 67280421310721ull, 0xFFFFFFFFFFFFFFFFull, 0x0123456789ABCDEFull};
  const std::uint64_t offsets[] = {0ull,
                                   4ull,
                                   1000ull,
                                   (1ull << 32) - 8,
                                   (1ull << 32) + 12,
                                   (1ull << 34) + 4,
                                   (1ull << 40) + 1024,
                                   (1ull << 63) - 4096};
  const int n = 4099, run = 1001;
  int failures = 0, cases = 0;
  Kokkos::View<std::uint32_t*, Space> bits("bits", n);
  Kokkos::View<unsigned int*, Space> ref("ref", n), seq("seq", run);
  for (auto seed : seeds) {
    for (auto offset : offsets) {
      ++cases;
      kdt::Generator gen(seed);
      gen.set_state(kdt::RNGState{seed, offset});
      kdt::random_bits_(bits, gen);
      Kokkos::fence();
      curand_words<<<(n + 127) / 128, 128>>>(seed, offset, n, ref.data(), run, seq.data());
      const cudaError_t err = cudaDeviceSynchronize();
      auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bits);
      auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ref);
      auto s = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), seq);
      int bad = err != cudaSuccess ? 1 : 0;
      for (int i = 0; i < n; ++i) bad += b(i) != r(i);
      for (int i = 0; i < run; ++i) bad += b(i) != s(i);
      if (bad) {
        ++failures;
        std::printf("FAIL seed %llu offset %llu: %d mismatches (first words %08x vs %08x)%s\n",
                    static_cast<unsigned long long>(seed), static_cast<unsigned long long>(offset),
                    bad, b(0), r(0), err != cudaSuccess ? cudaGetErrorString(err) : "");
      }
    }
  }
  std::printf(
      "%s: random_bits_ vs curand() after curand_init(seed, 0, offset): %d of %d cases "
      "(%d words each, incl. offsets > 2^32)\n",
      failures ? "FAIL" : "PASS", cases - failures, cases, n);
  return failures ? 1 : 0;
}
#endif

// ---- --dump -------------------------------------------------------------------------------

// Every distribution on a few odd shapes, layouts, seeds and offsets, through
// Impl::fill_random on execution space ES, written as raw little-endian binary in logical
// row-major order to DIR/<case>.bin. Returns the file names.
// `transform`, if any, rewrites the bytes before they are written (dump_reduced).
using DumpTransform = std::function<void(std::vector<char>&)>;
template <class ES, class T, class Layout, class Dist>
void dump_case(const std::string& dir, const std::string& name, const Dist& dist,
               const std::vector<std::int64_t>& shape, std::uint64_t seed, std::uint64_t offset,
               std::vector<std::string>& files, const DumpTransform& transform) {
  using Mem = typename ES::memory_space;
  std::vector<char> bytes;
  kdt::RNGState state{seed, offset};
  const auto fill_input = [](auto& host_view, std::size_t count) {
    using V = typename std::decay_t<decltype(host_view)>::value_type;
    V* p = host_view.data();
    for (std::size_t i = 0; i < count; ++i) p[i] = static_cast<V>(1.0 + 0.25 * (i % 7));
  };
  if (shape.size() == 1) {
    Kokkos::View<T*, Layout, Mem> v("v", shape[0]);
    auto h = Kokkos::create_mirror_view(v);
    fill_input(h, v.size());
    Kokkos::deep_copy(v, h);
    kdt::Impl::fill_random(ES(), v, dist, state, kdt::Impl::whole_view_box(v));
    Kokkos::deep_copy(h, v);
    bytes.resize(v.size() * sizeof(T));
    for (std::int64_t i = 0; i < shape[0]; ++i)
      std::memcpy(&bytes[i * sizeof(T)], &h(i), sizeof(T));
  } else {
    Kokkos::View<T**, Layout, Mem> v("v", shape[0], shape[1]);
    auto h = Kokkos::create_mirror_view(v);
    fill_input(h, v.size());
    Kokkos::deep_copy(v, h);
    kdt::Impl::GlobalBox box = kdt::Impl::whole_view_box(v);
    if (shape.size() == 4) {  // a sub-box: global shape[2] x shape[3], origin (1, 3)
      box.global_extent[0] = shape[2];
      box.global_extent[1] = shape[3];
      box.origin[0] = 1;
      box.origin[1] = 3;
    }
    kdt::Impl::fill_random(ES(), v, dist, state, box);
    Kokkos::deep_copy(h, v);
    bytes.resize(v.size() * sizeof(T));
    std::size_t k = 0;
    for (std::int64_t i = 0; i < shape[0]; ++i)
      for (std::int64_t j = 0; j < shape[1]; ++j, ++k)
        std::memcpy(&bytes[k * sizeof(T)], &h(i, j), sizeof(T));
  }
  std::string file = name;
  for (auto e : shape) file += "_" + std::to_string(e);
  file += std::is_same<Layout, Kokkos::LayoutLeft>::value ? "_left" : "_right";
  file += "_s" + std::to_string(seed) + "_o" + std::to_string(offset) + ".bin";
  if (transform) transform(bytes);
  std::ofstream(dir + "/" + file, std::ios::binary).write(bytes.data(), bytes.size());
  files.push_back(file);
}

template <class ES, class T, class Dist>
void dump_all_shapes(const std::string& dir, const std::string& name, const Dist& dist,
                     std::vector<std::string>& files, const DumpTransform& transform = {}) {
  // (64 x 128 with offset 4: rows on blocks, so LayoutLeft takes the vector rows on devices.)
  const std::vector<std::vector<std::int64_t>> shapes = {
      {1}, {7}, {1001}, {3, 5}, {17, 33}, {64, 127}, {64, 128}, {5, 1031}, {6, 9, 11, 17}};
  const std::pair<std::uint64_t, std::uint64_t> states[] = {
      {0, 0},
      {42, 4},
      {67280421310721ull, (1ull << 32) - 8},
      {0xFFFFFFFFFFFFFFFFull, (1ull << 40) + 12}};
  for (const auto& shape : shapes) {
    for (const auto& st : states) {
      dump_case<ES, T, Kokkos::LayoutRight>(dir, name, dist, shape, st.first, st.second, files,
                                            transform);
      if (shape.size() > 1 && st.first == 42)
        dump_case<ES, T, Kokkos::LayoutLeft>(dir, name, dist, shape, st.first, st.second, files,
                                             transform);
    }
  }
}

// The f16 or bf16 files (<name>_f16, <name>_bf16: 2 bytes per element) of the distribution
// make(T) gives: on Kokkos' 16-bit type where it is one (GPU builds), else the float fill
// rounded here to nearest-even (uniform on [from, to): a rounded `to` becoming `from`), which
// the contract says is the same bytes: so a CUDA build's files compare with a host-only
// build's too.
template <class ES, class T16, class Make>
void dump_reduced(const std::string& dir, const std::string& name, bool bfloat16, const Make& make,
                  std::vector<std::string>& files, const float* uniform_bounds = nullptr) {
  const std::string file = name + (bfloat16 ? "_bf16" : "_f16");
  if constexpr (kdt::Impl::is_reduced_float<T16>()) {
    dump_all_shapes<ES, T16>(dir, file, make(T16()), files);
  } else {
    const auto round = [bfloat16](float x) {
      return bfloat16 ? kdt::Impl::float_to_bf16_bits(x) : kdt::Impl::float_to_f16_bits(x);
    };
    const auto to_16 = [=](std::vector<char>& bytes) {
      std::vector<char> out(bytes.size() / 2);
      for (std::size_t i = 0; i < bytes.size() / 4; ++i) {
        float x;
        std::memcpy(&x, &bytes[4 * i], 4);
        std::uint16_t bits = round(x);
        if (uniform_bounds && bits == round(uniform_bounds[1])) bits = round(uniform_bounds[0]);
        std::memcpy(&out[2 * i], &bits, 2);
      }
      bytes.swap(out);
    };
    dump_all_shapes<ES, float>(dir, file, make(float()), files, to_16);
  }
}

// Both 16-bit types, for the ops of issue 29.
template <class ES>
void dump_reduced_all(const std::string& dir, std::vector<std::string>& files) {
  namespace I = kdt::Impl;
  using Half = Kokkos::Experimental::half_t;
#if KOKKOSDTENSOR_BHALF_T_IS_16BIT
  using BHalf = Kokkos::Experimental::bhalf_t;
#else
  using BHalf = float;  // float where Kokkos' bhalf_t is (or Kokkos 3.4, which has none)
#endif
  const char* f = "kdt-perf";
  const float unit[2] = {0, 1}, wide[2] = {-2, 3};
  for (const bool bf : {false, true}) {
    const auto each = [&](const std::string& name, const auto& make, const float* bounds) {
      if (bf)
        dump_reduced<ES, BHalf>(dir, name, true, make, files, bounds);
      else
        dump_reduced<ES, Half>(dir, name, false, make, files, bounds);
    };
    each(
        "uniform", [&](auto t) { return I::make_uniform<decltype(t)>(0, 1, f); }, unit);
    each(
        "uniform_m2_3", [&](auto t) { return I::make_uniform<decltype(t)>(-2, 3, f); }, wide);
    each(
        "normal", [&](auto t) { return I::make_normal<decltype(t)>(0.5, 2, f); }, nullptr);
    each(
        "log_normal", [&](auto t) { return I::make_log_normal<decltype(t)>(1, 2, f); }, nullptr);
    each(
        "bernoulli", [&](auto t) { return I::make_bernoulli<decltype(t)>(0.3, f); }, nullptr);
    each(
        "dropout", [&](auto t) { return I::make_dropout<decltype(t)>(0.2, f); }, nullptr);
    each(
        "exponential", [&](auto t) { return I::make_exponential<decltype(t)>(1.5, f); }, nullptr);
    each(
        "trunc_normal", [&](auto t) { return I::make_trunc_normal<decltype(t)>(0, 1, -2, 2, f); },
        nullptr);
  }
}

template <class ES>
std::vector<std::string> dump_backend(const std::string& dir) {
  namespace I = kdt::Impl;
  const char* f = "kdt-perf";
  std::vector<std::string> files;
  mkdir(dir.c_str(), 0755);
  dump_all_shapes<ES, float>(dir, "uniform_f32", I::make_uniform<float>(0, 1, f), files);
  dump_all_shapes<ES, float>(dir, "uniform_m2_3_f32", I::make_uniform<float>(-2, 3, f), files);
  dump_all_shapes<ES, double>(dir, "uniform_f64", I::make_uniform<double>(0, 1, f), files);
  dump_all_shapes<ES, double>(dir, "uniform_m2_3_f64", I::make_uniform<double>(-2, 3, f), files);
  dump_all_shapes<ES, float>(dir, "normal_f32", I::make_normal<float>(0.5, 2, f), files);
  dump_all_shapes<ES, double>(dir, "normal_f64", I::make_normal<double>(0.5, 2, f), files);
  dump_all_shapes<ES, float>(dir, "log_normal_f32", I::make_log_normal<float>(1, 2, f), files);
  dump_all_shapes<ES, double>(dir, "log_normal_f64", I::make_log_normal<double>(1, 2, f), files);
  dump_all_shapes<ES, float>(dir, "bernoulli_f32", I::make_bernoulli<float>(0.3, f), files);
  dump_all_shapes<ES, double>(dir, "bernoulli_f64", I::make_bernoulli<double>(0.3, f), files);
  dump_all_shapes<ES, std::int8_t>(dir, "bernoulli_i8", I::make_bernoulli<std::int8_t>(0.7, f),
                                   files);
  dump_all_shapes<ES, float>(dir, "dropout_f32", I::make_dropout<float>(0.2, f), files);
  dump_all_shapes<ES, double>(dir, "dropout_f64", I::make_dropout<double>(0.2, f), files);
  dump_all_shapes<ES, std::uint32_t>(dir, "bits_u32", I::make_random_bits<std::uint32_t>(f), files);
  dump_all_shapes<ES, std::uint64_t>(dir, "bits_u64", I::make_random_bits<std::uint64_t>(f), files);
  dump_all_shapes<ES, std::int32_t>(dir, "randint_i32",
                                    I::make_randint<std::int32_t>(-7, 1000003, f), files);
  dump_all_shapes<ES, std::int64_t>(dir, "randint_i64",
                                    I::make_randint<std::int64_t>(-7, 1ll << 40, f), files);
  dump_all_shapes<ES, float>(dir, "exponential_f32", I::make_exponential<float>(1.5, f), files);
  dump_all_shapes<ES, double>(dir, "exponential_f64", I::make_exponential<double>(1.5, f), files);
  dump_all_shapes<ES, float>(dir, "geometric_f32", I::make_geometric<float>(0.3, f), files);
  dump_all_shapes<ES, std::int32_t>(dir, "geometric_i32", I::make_geometric<std::int32_t>(0.01, f),
                                    files);
  dump_all_shapes<ES, double>(dir, "geometric_f64", I::make_geometric<double>(0.3, f), files);
  dump_all_shapes<ES, float>(dir, "trunc_normal_f32", I::make_trunc_normal<float>(0, 1, -2, 2, f),
                             files);
  dump_all_shapes<ES, double>(dir, "trunc_normal_f64", I::make_trunc_normal<double>(0, 1, -2, 2, f),
                              files);
  dump_reduced_all<ES>(dir, files);
  Kokkos::fence();
  return files;
}

bool same_file(const std::string& a, const std::string& b) {
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  std::string sa((std::istreambuf_iterator<char>(fa)), std::istreambuf_iterator<char>());
  std::string sb((std::istreambuf_iterator<char>(fb)), std::istreambuf_iterator<char>());
  return fa.good() == fb.good() && sa == sb && !sa.empty();
}

// DIR/<backend>/...: the default execution space, and the default host execution space too
// when it differs; both are compared in-process file by file.
int dump(const std::string& dir) {
  if (g_rank != 0) return 0;
  mkdir(dir.c_str(), 0755);
  const std::string device_dir = dir + "/" + Space::name();
  const auto files = dump_backend<Space>(device_dir);
  std::printf("dump: %zu files in %s\n", files.size(), device_dir.c_str());
  if (device_is_host) return 0;
  const std::string host_dir = dir + "/" + HostSpace::name();
  dump_backend<HostSpace>(host_dir);
  int bad = 0;
  for (const auto& f : files) {
    if (!same_file(device_dir + "/" + f, host_dir + "/" + f)) {
      ++bad;
      if (bad <= 20) std::printf("DIFFER: %s\n", f.c_str());
    }
  }
  std::printf("%s: %s vs %s: %zu files, %d differ\n", bad ? "FAIL" : "PASS", Space::name(),
              HostSpace::name(), files.size(), bad);
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
  int rc = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    Options opt;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const auto next = [&]() -> std::string {
        if (i + 1 >= argc) {
          std::fprintf(stderr, "kdt-perf: %s needs a value\n", a.c_str());
          std::exit(2);
        }
        return argv[++i];
      };
      if (a == "--size") {
        opt.sizes = {parse_size(next())};
      } else if (a == "--sizes") {
        opt.sizes.clear();
        for (const auto& s : split(next())) opt.sizes.push_back(parse_size(s));
      } else if (a == "--iters") {
        opt.iters = std::max(1, std::atoi(next().c_str()));
      } else if (a == "--warmup") {
        opt.warmup = std::max(0, std::atoi(next().c_str()));
      } else if (a == "--json") {
        opt.json = next();
      } else if (a == "--only") {
        opt.only = split(next());
      } else if (a == "--cpu-time") {
        g_cpu_time = device_is_host;
      } else if (a == "--check-curand") {
        opt.check_curand = true;
      } else if (a == "--dump") {
        opt.dump = next();
      } else if (a == "--help" || a == "-h") {
        if (g_rank == 0)
          std::printf(
              "kdt-perf [--size N | --sizes N1,N2,...] [--iters K>=20] [--warmup W] [--json FILE]\n"
              "         [--only name,...] | --check-curand | --dump DIR\n");
        opt.sizes = {};
        opt.iters = -1;
      } else {
        std::fprintf(stderr, "kdt-perf: unknown argument %s\n", a.c_str());
        rc = 2;
      }
    }
    if (rc == 0 && opt.iters > 0) {
      if (opt.check_curand) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(KDT_PERF_HAVE_CURAND)
        rc = g_rank == 0 ? check_curand() : 0;
#else
        if (g_rank == 0) std::printf("FAIL: --check-curand needs a CUDA build with cuRAND\n");
        rc = 1;
#endif
      } else if (!opt.dump.empty()) {
        rc = dump(opt.dump);
      } else {
        if (opt.sizes.empty()) opt.sizes = {device_is_host ? (1ll << 24) : (1ll << 28)};
        if (g_rank == 0)
          std::printf("kdt-perf: backend %s, %d rank(s), %d timed runs (median) after %d warm-up\n",
                      backend_name().c_str(), g_ranks, opt.iters, opt.warmup);
        std::vector<Record> records;
        for (auto n : opt.sizes) run_size(n, opt, records);
        print_records(records);
        write_json(records, opt.json);
      }
    }
  }
  MPI_Finalize();
  return rc;
}
