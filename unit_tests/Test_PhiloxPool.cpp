// Random_Philox_Pool (SPEC section 4c, docs/streams.md): a drop-in for
// Kokkos::Random_XorShift64_Pool. Kokkos::fill_random works with it for float, double and
// integer Views (values in range) and draws the documented fill-stream words, uniform and normal
// moments are right, get_state(index) is deterministic and continues after free_state, state
// `index` draws the documented Philox words (never the ops' words), a kernel written for Kokkos'
// pool compiles and runs unchanged, and a pool of many states constructs. Kokkos::fill_random
// on a DynRankView gives the values of the View of its rank and extents, and Kokkos 4.7's
// Pool(exec, seed[, num_states]) and init(exec, ...) draw as Pool(seed[, num_states]).

#include <gtest/gtest.h>

#include "DynRankViewValues.hpp"
#include "TestSpace.hpp"

#include <KokkosDTensor_PhiloxPool.hpp>
#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>
#include <Kokkos_Random.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <typeinfo>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

using Pool = kdt::Random_Philox_Pool<TestSpace>;

template <class T>
std::vector<double> host_values(const Kokkos::View<T*, TestSpace>& view) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  std::vector<double> values(host.extent(0));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(host(i));
  return values;
}

template <class T>
void check_fill_random_range(T begin, T end) {
  const std::size_t n = 100000;
  Kokkos::View<T*, TestSpace> v("v", n);
  Pool pool(1234);
  Kokkos::fill_random(v, pool, begin, end);
  Kokkos::fence();
  double lo = 1e300, hi = -1e300;
  for (const double x : host_values(v)) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  EXPECT_GE(lo, static_cast<double>(begin)) << typeid(T).name();
  EXPECT_LT(hi, static_cast<double>(end)) << typeid(T).name();
  // The range is covered (the bounds are reached or nearly).
  const double width = static_cast<double>(end) - static_cast<double>(begin);
  EXPECT_LT(lo - static_cast<double>(begin), 0.01 * width + 1) << typeid(T).name();
  EXPECT_GT(hi - static_cast<double>(begin), 0.99 * width - 1) << typeid(T).name();
  // The range-only form: [0, range).
  Kokkos::fill_random(v, pool, end);
  Kokkos::fence();
  for (const double x : host_values(v)) {
    ASSERT_GE(x, 0.0);
    ASSERT_LT(x, static_cast<double>(end));
  }
}

struct Moments {
  double mean = 0, variance = 0;
};
Moments moments(const std::vector<double>& x) {
  Moments m;
  for (const double v : x) m.mean += v;
  m.mean /= x.size();
  for (const double v : x) m.variance += (v - m.mean) * (v - m.mean);
  m.variance /= (x.size() - 1);
  return m;
}

// A kernel as users write it for Kokkos' pools: templated on the pool type only.
template <class PoolType>
struct UserKernel {
  PoolType pool;
  Kokkos::View<double*, TestSpace> out;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    typename PoolType::generator_type gen = pool.get_state();
    const double u = gen.drand(-1.0, 1.0);
    const double z = gen.normal(0.0, 2.0);
    const int k = gen.rand(10);
    const std::uint32_t w = gen.urand(100u, 200u);
    const std::int64_t l = gen.rand64(1000);
    const float f = gen.frand(3.0f);
    const bool ok = u >= -1.0 && u < 1.0 && k >= 0 && k < 10 && w >= 100u && w < 200u && l >= 0 &&
                    l < 1000 && f >= 0.0f && f < 3.0f &&
                    gen.urand() <= PoolType::generator_type::MAX_URAND &&
                    gen.rand() <= PoolType::generator_type::MAX_RAND &&
                    gen.rand64() <= PoolType::generator_type::MAX_RAND64;
    out(i) = ok ? z : 1e300;
    pool.free_state(gen);
  }
};

}  // namespace

TEST(PhiloxPool, FillRandomValuesInRange) {
  check_fill_random_range<float>(-2.5f, 4.0f);
  check_fill_random_range<double>(-1e-3, 5.0);
  check_fill_random_range<std::int32_t>(-1000, 1000);
  check_fill_random_range<std::uint32_t>(3u, 70000u);
  check_fill_random_range<std::int64_t>(-5000000000ll, 5000000000ll);
  check_fill_random_range<std::uint64_t>(10u, 1u << 20);
  check_fill_random_range<std::int16_t>(-300, 300);
}

// Word `w` of the fill stream of `seed`: the pool stream of state index -1 (docs/streams.md).
std::uint32_t fill_stream_word(std::uint64_t seed, std::uint64_t w) {
  const std::uint64_t block = w / 4;
  return kdt::Impl::philox4x32_10(static_cast<std::uint32_t>(block),
                                  static_cast<std::uint32_t>(block >> 32), 0xFFFFFFFFu, 0xFFFFFFFFu,
                                  static_cast<std::uint32_t>(seed),
                                  static_cast<std::uint32_t>(seed >> 32))
      .word[w % 4];
}

std::uint64_t fill_position_of(const Pool& pool) { return pool.fill_position(); }

// Kokkos::fill_random with the pool takes the library's overload: element L (row-major, here
// of a LayoutLeft View) is the documented fill-stream word(s), successive fills continue at
// the next block, init restarts, and the same seed gives the same values.
void PhiloxPool_FillRandomDrawsTheFillStream() {
  const std::uint64_t seed = 0x0123456789abcdefull;
  Pool pool(seed, 16);
  const Pool copy = pool;  // copies share the fill position
  EXPECT_EQ(fill_position_of(pool), 0u);
  Kokkos::View<float**, Kokkos::LayoutLeft, TestSpace> f("f", 5, 7);
  Kokkos::fill_random(f, pool, 0.0f, 1.0f);
  const auto hf = kdt::to_host_row_major(f);
  for (std::uint64_t l = 0; l < 35; ++l)
    ASSERT_EQ(hf(l / 7, l % 7), kdt::Impl::uniform01_float(fill_stream_word(seed, l))) << l;
  EXPECT_EQ(fill_position_of(pool), 36u);  // 35 words, to the next block
  Kokkos::View<double*, TestSpace> d("d", 9);
  Kokkos::fill_random(TestSpace(), d, pool, 1.0);  // the range form with an instance: [0, 1)
  Kokkos::fence();
  const auto hd = kdt::to_host_row_major(d);
  for (std::uint64_t l = 0; l < 9; ++l)
    ASSERT_EQ(hd(l), kdt::Impl::uniform01_double(fill_stream_word(seed, 36 + 2 * l),
                                                 fill_stream_word(seed, 37 + 2 * l)))
        << l;
  EXPECT_EQ(fill_position_of(pool), 56u);
  EXPECT_EQ(fill_position_of(copy), 56u);
  // The fill stream is not a state's: state 0 still starts at its word 0.
  Kokkos::View<std::uint32_t*, TestSpace> u("u", 3);
  Kokkos::fill_random(u, pool, 0u, 0xFFFFFFFFu);
  const auto hu = kdt::to_host_row_major(u);
  for (std::uint64_t l = 0; l < 3; ++l) {
    // urand(start, end) = (range * word) >> 32 + start, range = end - start
    const std::uint64_t word = fill_stream_word(seed, 56 + l);
    ASSERT_EQ(hu(l), static_cast<std::uint32_t>((0xFFFFFFFFull * word) >> 32)) << l;
  }
  pool.init(seed, 16);
  EXPECT_EQ(fill_position_of(pool), 0u);
  Kokkos::View<float**, Kokkos::LayoutLeft, TestSpace> again("again", 5, 7);
  Kokkos::fill_random(again, pool, 0.0f, 1.0f);
  const auto ha = kdt::to_host_row_major(again);
  for (std::uint64_t l = 0; l < 35; ++l) ASSERT_EQ(ha(l / 7, l % 7), hf(l / 7, l % 7)) << l;
}

TEST(PhiloxPool, FillRandomDrawsTheFillStream) { PhiloxPool_FillRandomDrawsTheFillStream(); }

// 2-D Views too (fill_random's rank-2 functor).
TEST(PhiloxPool, FillRandomRank2) {
  Kokkos::View<float**, TestSpace> v("v", 123, 45);
  Pool pool(5);
  Kokkos::fill_random(v, pool, 1.0f, 2.0f);
  const auto host = kdt::to_host_row_major(v);
  for (std::size_t i = 0; i < host.size(); ++i) {
    ASSERT_GE(host.data()[i], 1.0f);
    ASSERT_LT(host.data()[i], 2.0f);
  }
}

// Uniform [0, 1) and normal(mean, std): mean and variance within 4 standard errors.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void PhiloxPool_UniformAndNormalMoments() {
  const std::size_t n = 1000000;
  Pool pool(20261201);
  Kokkos::View<double*, TestSpace> u("u", n);
  Kokkos::fill_random(u, pool, 0.0, 1.0);
  const Moments mu = moments(host_values(u));
  EXPECT_NEAR(mu.mean, 0.5, 4 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(mu.variance, 1.0 / 12, 4 * std::sqrt((1.0 / 80 - 1.0 / 144) / n));

  Kokkos::View<float*, TestSpace> f("f", n);
  Kokkos::fill_random(f, pool, 0.0f, 1.0f);
  const Moments mf = moments(host_values(f));
  EXPECT_NEAR(mf.mean, 0.5, 4 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(mf.variance, 1.0 / 12, 4 * std::sqrt((1.0 / 80 - 1.0 / 144) / n));

  const double mean = 1.5, sd = 2.0;
  Kokkos::View<double*, TestSpace> z("z", n);
  const int states = pool.num_states();
  Kokkos::parallel_for(
      "normal", Kokkos::RangePolicy<TestSpace>(0, n), KOKKOS_LAMBDA(int i) {
        auto gen = pool.get_state(i % states);
        z(i) = gen.normal(mean, sd);
        pool.free_state(gen);
      });
  const Moments mz = moments(host_values(z));
  EXPECT_NEAR(mz.mean, mean, 4 * sd / std::sqrt(n));
  EXPECT_NEAR(mz.variance, sd * sd, 4 * sd * sd * std::sqrt(2.0 / n));
}

TEST(PhiloxPool, UniformAndNormalMoments) { PhiloxPool_UniformAndNormalMoments(); }

// get_state(index): two pools with the same seed give the same sequences per index, and a
// second round continues each index's stream where free_state left it.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void PhiloxPool_GetStateByIndexIsDeterministicAndContinues() {
  const int states = 1000, draws = 10;
  Pool a(99, states), b(99, states), c(99, states);
  Kokkos::View<std::uint64_t**, TestSpace> ra("ra", states, 2 * draws), rb("rb", states, draws),
      rc("rc", states, 2 * draws);
  const auto round = [&](Pool pool, Kokkos::View<std::uint64_t**, TestSpace> out, int first,
                         int count) {
    Kokkos::parallel_for(
        "round", Kokkos::RangePolicy<TestSpace>(0, states), KOKKOS_LAMBDA(int i) {
          auto gen = pool.get_state(i);
          for (int k = 0; k < count; ++k)
            out(i, first + k) = k % 3 == 0 ? gen.urand64() : gen.urand();
          pool.free_state(gen);
        });
    Kokkos::fence();
  };
  round(a, ra, 0, draws);
  round(b, rb, 0, draws);
  round(a, ra, draws, draws);  // continues
  // c: one generator per index drawing all 2 * draws values without a free_state between:
  // the first `draws` values use as many words as a's first round (k % 3 pattern repeats).
  Kokkos::parallel_for(
      "whole", Kokkos::RangePolicy<TestSpace>(0, states), KOKKOS_LAMBDA(int i) {
        auto gen = c.get_state(i);
        for (int k = 0; k < 2 * draws; ++k)
          rc(i, k) = (k % draws) % 3 == 0 ? gen.urand64() : gen.urand();
        c.free_state(gen);
      });
  const auto ha = kdt::to_host_row_major(ra);
  const auto hb = kdt::to_host_row_major(rb);
  const auto hc = kdt::to_host_row_major(rc);
  for (int i = 0; i < states; ++i) {
    for (int k = 0; k < draws; ++k) ASSERT_EQ(ha(i, k), hb(i, k)) << i << " " << k;
    for (int k = 0; k < 2 * draws; ++k) ASSERT_EQ(ha(i, k), hc(i, k)) << i << " " << k;
  }
  // Different indices draw different streams.
  EXPECT_NE(ha(0, 0), ha(1, 0));
}

TEST(PhiloxPool, GetStateByIndexIsDeterministicAndContinues) {
  PhiloxPool_GetStateByIndexIsDeterministicAndContinues();
}

// State `index`'s word W is lane W % 4 of Philox with counter {lo32(W/4), hi32(W/4),
// lo32(index), hi32(index) | 0x80000000} and key = seed: never a word of the ops' stream.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void PhiloxPool_StateWordsAreTheDocumentedPhiloxWords() {
  const std::uint64_t seed = 0x0123456789ABCDEFull;
  const int states = 64, words = 11;
  Pool pool(seed, states);
  Kokkos::View<std::uint32_t**, TestSpace> out("out", states, words);
  Kokkos::parallel_for(
      "words", Kokkos::RangePolicy<TestSpace>(0, states), KOKKOS_LAMBDA(int i) {
        auto gen = pool.get_state(i);
        for (int k = 0; k < words; ++k) out(i, k) = gen.urand();
        pool.free_state(gen);
      });
  const auto host = kdt::to_host_row_major(out);
  const auto key = kdt::Impl::philox_key_schedule(seed);
  for (int i = 0; i < states; ++i) {
    for (int k = 0; k < words; ++k) {
      const auto block = kdt::Impl::philox4x32_10(static_cast<std::uint32_t>(k / 4), 0u,
                                                  static_cast<std::uint32_t>(i), 0x80000000u, key);
      ASSERT_EQ(host(i, k), block.word[k % 4]) << i << " " << k;
      EXPECT_NE(host(i, k), kdt::Impl::stream_word(seed, k)) << i << " " << k;
    }
  }
  // The float and double uniforms are the ops' transforms of the same words.
  Pool again(seed, states);
  Kokkos::View<double*, TestSpace> d("d", 2);
  Kokkos::parallel_for(
      "transforms", Kokkos::RangePolicy<TestSpace>(0, 1), KOKKOS_LAMBDA(int) {
        auto gen = again.get_state(3);
        d(0) = gen.frand();
        d(1) = gen.drand();
        again.free_state(gen);
      });
  const auto hd = kdt::to_host_row_major(d);
  EXPECT_EQ(hd(0), static_cast<double>(kdt::Impl::uniform01_float(host(3, 0))));
  EXPECT_EQ(hd(1), kdt::Impl::uniform01_double(host(3, 1), host(3, 2)));
}

TEST(PhiloxPool, StateWordsAreTheDocumentedPhiloxWords) {
  PhiloxPool_StateWordsAreTheDocumentedPhiloxWords();
}

// The same user kernel compiles and runs with Kokkos' pool and with this one.
TEST(PhiloxPool, DropInForKokkosPoolInUserKernels) {
  const int n = 50000;
  Kokkos::View<double*, TestSpace> x("x", n), y("y", n);
  Kokkos::parallel_for("xorshift", Kokkos::RangePolicy<TestSpace>(0, n),
                       UserKernel<Kokkos::Random_XorShift64_Pool<TestSpace>>{
                           Kokkos::Random_XorShift64_Pool<TestSpace>(7), x});
  Kokkos::parallel_for("philox", Kokkos::RangePolicy<TestSpace>(0, n),
                       UserKernel<Pool>{Pool(7), y});
  const auto hx = host_values(x), hy = host_values(y);
  const Moments mx = moments(hx), my = moments(hy);
  EXPECT_NEAR(mx.mean, 0.0, 4 * 2.0 / std::sqrt(n));
  EXPECT_NEAR(my.mean, 0.0, 4 * 2.0 / std::sqrt(n));
  EXPECT_NEAR(my.variance, 4.0, 4 * 4.0 * std::sqrt(2.0 / n));
  EXPECT_LT(*std::max_element(hy.begin(), hy.end()), 1e300);  // every range check held
}

// Many states: one allocation and a fill, every state usable; init restarts the streams.
// (A free function: CUDA does not allow device lambdas inside a TEST body.)
void PhiloxPool_ManyStates() {
  const int states = 1 << 22;
  Pool pool(3, states);
  EXPECT_EQ(pool.num_states(), states);
  Kokkos::View<std::uint32_t*, TestSpace> first("first", states);
  Kokkos::parallel_for(
      "first", Kokkos::RangePolicy<TestSpace>(0, states), KOKKOS_LAMBDA(int i) {
        auto gen = pool.get_state(i);
        first(i) = gen.urand();
        pool.free_state(gen);
      });
  pool.init(3, states);
  Kokkos::View<std::uint32_t*, TestSpace> again("again", states);
  Kokkos::parallel_for(
      "again", Kokkos::RangePolicy<TestSpace>(0, states), KOKKOS_LAMBDA(int i) {
        auto gen = pool.get_state(i);
        again(i) = gen.urand();
        pool.free_state(gen);
      });
  const auto h1 = kdt::to_host_row_major(first);
  const auto h2 = kdt::to_host_row_major(again);
  for (int i = 0; i < states; i += 4099) ASSERT_EQ(h1(i), h2(i)) << i;
  Pool default_size(3);
  EXPECT_EQ(default_size.num_states(), TestSpace().concurrency());
}

TEST(PhiloxPool, ManyStates) { PhiloxPool_ManyStates(); }

// ---- Kokkos::fill_random on a DynRankView, Pool(exec, seed[, num_states]) (issue 28) -------

namespace {

using Extents = std::vector<std::int64_t>;

template <class T, class... Properties>
std::vector<T> row_major_values(const Kokkos::DynRankView<T, Properties...>& view) {
  return dyn_rank_view_values(view);
}

template <class ViewType>
std::vector<typename ViewType::non_const_value_type> row_major_values(const ViewType& view) {
  Kokkos::fence();
  const auto host = kdt::to_host_row_major(view);
  return std::vector<typename ViewType::non_const_value_type>(host.data(),
                                                              host.data() + host.size());
}

// Kokkos::fill_random(exec, a, pool, begin, end), then the range form without an instance, on
// a DynRankView and on the View of the same rank and extents, each from its own pool of the
// same seed: the same values, and the pools' fill positions move alike.
template <class T, class Layout>
void check_fill_random_dyn_rank_view(T begin, T end) {
  for (const Extents& extents :
       std::vector<Extents>{{}, {127}, {5, 127}, {3, 5, 127}, {3, 5, 3, 127}, {3, 0, 5}}) {
    with_view<T, Layout>(extents, [&](const auto& view) {
      const std::string what = std::string(typeid(T).name()) + " rank " +
                               std::to_string(extents.size()) + " size " +
                               std::to_string(view.size());
      const auto drv = make_dyn_rank_view<T, Layout>(extents);
      Pool pool_view(0xfeedull, 16), pool_drv(0xfeedull, 16);
      Kokkos::fill_random(TestSpace(), view, pool_view, begin, end);
      Kokkos::fill_random(TestSpace(), drv, pool_drv, begin, end);
      const auto first = row_major_values(drv);
      EXPECT_EQ(first, row_major_values(view)) << what;
      EXPECT_EQ(fill_position_of(pool_drv), fill_position_of(pool_view)) << what;
      Kokkos::fill_random(view, pool_view, end);
      Kokkos::fill_random(drv, pool_drv, end);
      const auto second = row_major_values(drv);
      EXPECT_EQ(second, row_major_values(view)) << what;
      EXPECT_EQ(fill_position_of(pool_drv), fill_position_of(pool_view)) << what;
      if (view.size() > 0) EXPECT_NE(second, first) << what;  // the fill stream moved on
    });
  }
}

// Per-index draws of every state: urand, then urand64, drand, normal.
Kokkos::View<std::uint64_t**, TestSpace> draws_per_state(const Pool& pool, int words) {
  const int states = pool.num_states();
  Kokkos::View<std::uint64_t**, TestSpace> out("out", states, words);
  Kokkos::parallel_for(
      "draws", Kokkos::RangePolicy<TestSpace>(0, states), KOKKOS_LAMBDA(int i) {
        auto gen = pool.get_state(i);
        for (int k = 0; k < words; ++k) {
          const int kind = k % 4;
          if (kind == 0) out(i, k) = gen.urand();
          if (kind == 1) out(i, k) = gen.urand64();
          if (kind == 2) out(i, k) = static_cast<std::uint64_t>(gen.drand() * 9007199254740992.0);
          if (kind == 3) out(i, k) = static_cast<std::uint64_t>(gen.normal() * 1e15 + 1e17);
        }
        pool.free_state(gen);
      });
  Kokkos::fence();
  return out;
}

// Pools a and b draw alike: as many states, the same per-state draws (twice: the second
// round continues each state), the same fills.
void expect_same_draws(Pool a, Pool b, const std::string& what) {
  ASSERT_EQ(a.num_states(), b.num_states()) << what;
  EXPECT_EQ(a.seed(), b.seed()) << what;
  for (int round = 0; round < 2; ++round) {
    const auto da = kdt::to_host_row_major(draws_per_state(a, 9));
    const auto db = kdt::to_host_row_major(draws_per_state(b, 9));
    ASSERT_EQ(da.size(), db.size());
    EXPECT_EQ(std::memcmp(da.data(), db.data(), da.size() * sizeof(std::uint64_t)), 0)
        << what << " round " << round;
  }
  Kokkos::View<double**, TestSpace> fa("fa", 7, 33), fb("fb", 7, 33);
  Kokkos::fill_random(TestSpace(), fa, a, -1.0, 1.0);
  Kokkos::fill_random(fb, b, -1.0, 1.0);
  EXPECT_EQ(row_major_values(fa), row_major_values(fb)) << what;
  EXPECT_EQ(fill_position_of(a), fill_position_of(b)) << what;
}

void PhiloxPool_ExecutionSpaceConstructors() {
  const TestSpace exec;
  const std::uint64_t seed = 0x0123456789abcdefull;
  {
    Pool with_exec(exec, seed);
    exec.fence();
    EXPECT_EQ(with_exec.num_states(), exec.concurrency());
    expect_same_draws(with_exec, Pool(seed), "Pool(exec, seed)");
  }
  for (const int n : {1, 5, 1000}) {
    Pool with_exec(exec, seed, n);
    exec.fence();
    EXPECT_EQ(with_exec.num_states(), n);
    expect_same_draws(with_exec, Pool(seed, n), "Pool(exec, seed, " + std::to_string(n) + ")");
  }
  Pool with_exec(exec, seed, 0);  // as Pool(seed, 0): one state
  exec.fence();
  expect_same_draws(with_exec, Pool(seed, 0), "Pool(exec, seed, 0)");
  // init(exec, seed, n) restarts as init(seed, n) does, after draws and fills.
  Pool a(exec, 1, 3), b(2, 3);
  draws_per_state(a, 5);
  Kokkos::View<float*, TestSpace> f("f", 10);
  Kokkos::fill_random(f, b, 1.0f);
  a.init(exec, seed, 64);
  exec.fence();
  b.init(seed, 64);
  expect_same_draws(a, b, "init(exec, seed, n)");
}

}  // namespace

TEST(PhiloxPool, FillRandomOnDynRankViewLayoutRight) {
  check_fill_random_dyn_rank_view<float, Kokkos::LayoutRight>(-2.5f, 4.0f);
  check_fill_random_dyn_rank_view<double, Kokkos::LayoutRight>(-1e-3, 5.0);
  check_fill_random_dyn_rank_view<std::int32_t, Kokkos::LayoutRight>(-1000, 1000);
  check_fill_random_dyn_rank_view<std::uint64_t, Kokkos::LayoutRight>(10u, 1u << 20);
}

TEST(PhiloxPool, FillRandomOnDynRankViewLayoutLeft) {
  check_fill_random_dyn_rank_view<float, Kokkos::LayoutLeft>(-2.5f, 4.0f);
  check_fill_random_dyn_rank_view<double, Kokkos::LayoutLeft>(-1e-3, 5.0);
  check_fill_random_dyn_rank_view<std::int16_t, Kokkos::LayoutLeft>(-300, 300);
}

TEST(PhiloxPool, ExecutionSpaceConstructors) { PhiloxPool_ExecutionSpaceConstructors(); }
