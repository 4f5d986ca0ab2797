// Parameter initialisation (KokkosDTensor_Init.hpp): torch.nn.init's gains and fans
// (values computed by hand / with Python's math module the way torch.nn.init does), the
// inits are exactly uniform_/normal_ with PyTorch's bounds, a DTensor init equals the same
// init on one rank for every mesh and placement, sample statistics match the formulas, and
// every bad argument throws before anything changes; on a DynRankView the inits are those of
// the View of its rank. Runs on any number of ranks.

#include <gtest/gtest.h>
#include <mpi.h>

#include <KokkosDTensor.hpp>
#include <Kokkos_DynRankView.hpp>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "DynRankViewValues.hpp"
#include "TestHelpers.hpp"

namespace kdt = KokkosDTensor;
using namespace TestHelpers;

namespace {

// Row-major values of a View of any rank on the host.
template <class ViewType>
std::vector<typename ViewType::non_const_value_type> values_of(const ViewType& view) {
  using T = typename ViewType::non_const_value_type;
  Kokkos::fence();
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  const auto extents = kdt::Impl::view_extents(host);
  std::int64_t count = 1;
  for (auto e : extents) count *= e;
  std::vector<T> values;
  values.reserve(static_cast<std::size_t>(count));
  std::vector<std::int64_t> index(extents.size() > 0 ? extents.size() : 1, 0);
  for (std::int64_t linear = 0; linear < count; ++linear) {
    std::int64_t rest = linear;
    for (int d = static_cast<int>(extents.size()) - 1; d >= 0; --d) {
      index[d] = rest % extents[d];
      rest /= extents[d];
    }
    values.push_back(kdt::Impl::host_element(host, index.data()));
  }
  return values;
}

// Expects `call` to throw E with exactly `message`.
template <class E, class F>
void expect_throw_message(F call, const std::string& message) {
  try {
    call();
    ADD_FAILURE() << "no exception, expected: " << message;
  } catch (const E& e) {
    EXPECT_EQ(std::string(e.what()), message);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

template <class T, class... Properties>
std::vector<T> values_of(const Kokkos::DynRankView<T, Properties...>& view) {
  return dyn_rank_view_values(view);
}

// Init number `which` on t, from gen (the default generator for the last random one).
template <class Tensor>
void run_init(int which, const Tensor& t, kdt::Generator& gen) {
  const Kokkos::DefaultExecutionSpace space;
  switch (which) {
    case 0:
      kdt::kaiming_uniform_(t, 0.1, "fan_out", "relu", gen);
      break;
    case 1:
      kdt::kaiming_normal_(space, t, 0.0, "fan_in", "leaky_relu", gen);
      break;
    case 2:
      kdt::xavier_uniform_(t, 1.5, gen);
      break;
    case 3:
      kdt::xavier_normal_(space, t, 0.5, gen);
      break;
    case 4:
      kdt::trunc_normal_(t, 0.0, 1.0, -1.0, 2.0, gen);
      break;
    case 5:
      kdt::kaiming_uniform_(t);
      break;
    case 6:
      kdt::constant_(t, 2.5f);
      break;
    case 7:
      kdt::ones_(space, t);
      break;
    default:
      kdt::zeros_(t);
      break;
  }
}

// The bits of a float or 16-bit value.
template <class T>
std::uint32_t bits_of(const T& value) {
  if constexpr (kdt::Impl::is_reduced_float<T>()) {
    return kdt::Impl::reduced_to_bits(value);
  } else {
    std::uint32_t bits;
    const float x = value;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
  }
}

// half_t and bhalf_t (issue 29; bhalf_t: half_t with Kokkos 3.4, which has none): each random
// init equals the float init from the same state rounded to nearest-even (a uniform init's
// rounded bound becoming -bound, the sign flipped), where they are 16-bit; float's init where
// they are float. The generators end in the same state.
template <class T>
void check_reduced_precision_inits() {
  for (int which = 0; which < 5; ++which) {
    kdt::Generator gen_f(21), gen_h(21);
    Kokkos::View<float**> f("f", 33, 17);
    Kokkos::View<T**> h("h", 33, 17);
    run_init(which, f, gen_f);
    run_init(which, h, gen_h);
    EXPECT_EQ(gen_h.get_state().offset, gen_f.get_state().offset) << "init " << which;
    const auto values_f = values_of(f);
    const auto values_h = values_of(h);
    const bool uniform = which == 0 || which == 2;
    for (std::size_t i = 0; i < values_f.size(); ++i) {
      const std::uint32_t got = bits_of(values_h[i]);
      if constexpr (kdt::Impl::is_reduced_float<T>()) {
        const std::uint16_t rounded = kdt::Impl::round_to_reduced_bits<T>(values_f[i]);
        const bool bound = uniform && !(rounded & 0x8000) && got == (rounded ^ 0x8000u);
        EXPECT_TRUE(got == rounded || bound) << "init " << which << " element " << i;
      } else {
        EXPECT_EQ(got, bits_of(values_f[i])) << "init " << which << " element " << i;
      }
    }
  }
}

class Init : public ::testing::Test {
 protected:
  void SetUp() override { kdt::reset_rng_tracker(); }
  void TearDown() override { kdt::reset_rng_tracker(); }
};

}  // namespace

// torch.nn.init.calculate_gain, values from Python: math.sqrt(2.0 / (1 + 0.01 ** 2)) etc.
TEST_F(Init, CalculateGainMatchesPyTorch) {
  for (const char* linear : {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                             "conv_transpose2d", "conv_transpose3d", "sigmoid"}) {
    EXPECT_EQ(kdt::calculate_gain(linear), 1.0) << linear;
    EXPECT_EQ(kdt::calculate_gain(linear, 0.7), 1.0) << linear;  // param ignored
  }
  EXPECT_EQ(kdt::calculate_gain("tanh"), 1.6666666666666667);
  EXPECT_EQ(kdt::calculate_gain("relu"), 1.4142135623730951);
  EXPECT_EQ(kdt::calculate_gain("leaky_relu"), 1.4141428569978354);  // slope 0.01
  EXPECT_EQ(kdt::calculate_gain("leaky_relu", 0.2), 1.3867504905630728);
  EXPECT_EQ(kdt::calculate_gain("leaky_relu", 0.0), 1.4142135623730951);  // = relu
  EXPECT_EQ(kdt::calculate_gain("leaky_relu", std::sqrt(5.0)), 0.5773502691896257);
  EXPECT_EQ(kdt::calculate_gain("selu"), 0.75);
}

// torch.nn.init._calculate_fan_in_and_fan_out.
TEST_F(Init, FanInAndFanOutMatchPyTorch) {
  auto fans = kdt::calculate_fan_in_and_fan_out({7, 13});  // nn.Linear(13, 7).weight
  EXPECT_EQ(fans.fan_in, 13);
  EXPECT_EQ(fans.fan_out, 7);
  fans = kdt::calculate_fan_in_and_fan_out({16, 8, 3, 3});  // nn.Conv2d(8, 16, 3).weight
  EXPECT_EQ(fans.fan_in, 72);
  EXPECT_EQ(fans.fan_out, 144);
  fans = kdt::calculate_fan_in_and_fan_out({4, 2, 5});  // nn.Conv1d(2, 4, 5).weight
  EXPECT_EQ(fans.fan_in, 10);
  EXPECT_EQ(fans.fan_out, 20);
  fans = kdt::calculate_fan_in_and_fan_out({2, 3, 4, 5, 6});
  EXPECT_EQ(fans.fan_in, 360);
  EXPECT_EQ(fans.fan_out, 240);

  // From a View's extents and from a DTensor's GLOBAL shape, whatever its shard.
  Kokkos::View<float***, Kokkos::LayoutLeft> view("v", 4, 2, 5);
  fans = kdt::calculate_fan_in_and_fan_out(view);
  EXPECT_EQ(fans.fan_in, 10);
  EXPECT_EQ(fans.fan_out, 20);
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::DTensor<float**> w("w", mesh, {7, 13}, {kdt::Shard(1)}, kdt::deferred_allocation);
  fans = kdt::calculate_fan_in_and_fan_out(w);
  EXPECT_EQ(fans.fan_in, 13);
  EXPECT_EQ(fans.fan_out, 7);
}

// Each init is the random op with PyTorch's bound/std: same values, same state after.
TEST_F(Init, InitsAreTheRandomOpsWithPyTorchScales) {
  using M = Kokkos::View<float**>;
  const double kaiming_linear_bound = 0.2773500981126145;  // 1/sqrt(13): nn.Linear default
  {
    kdt::Generator g1(42), g2(42);
    M a("a", 7, 13), b("b", 7, 13);
    kdt::kaiming_uniform_(a, std::sqrt(5.0), "fan_in", "leaky_relu", g1);
    kdt::uniform_(b, -kaiming_linear_bound, kaiming_linear_bound, g2);
    EXPECT_TRUE(bitwise_equal(values_of(a), values_of(b)));
    EXPECT_EQ(g1.get_state(), g2.get_state());
    EXPECT_EQ(g1.get_state().offset, 92u);  // round_up_to_4(91)
  }
  {
    // kaiming_normal_(mode fan_out, relu) on a conv weight: std = sqrt(2) / sqrt(144).
    kdt::Generator g1(7), g2(7);
    Kokkos::View<double****> a("a", 16, 8, 3, 3), b("b", 16, 8, 3, 3);
    kdt::kaiming_normal_(a, 0.0, "fan_out", "relu", g1);
    kdt::normal_(b, 0.0, std::sqrt(2.0) / std::sqrt(144.0), g2);
    EXPECT_TRUE(bitwise_equal(values_of(a), values_of(b)));
    EXPECT_EQ(g1.get_state(), g2.get_state());
  }
  {
    // Defaults: a = 0, fan_in, leaky_relu -> gain sqrt(2); bound = sqrt(3) * sqrt(2)/sqrt(13).
    kdt::Generator g2(3);
    M a("a", 7, 13), b("b", 7, 13);
    const kdt::RNGState saved = kdt::default_generator().get_state();
    kdt::default_generator().manual_seed(3);
    kdt::kaiming_uniform_(a);
    kdt::uniform_(b, -std::sqrt(3.0) * (std::sqrt(2.0) / std::sqrt(13.0)),
                  std::sqrt(3.0) * (std::sqrt(2.0) / std::sqrt(13.0)), g2);
    EXPECT_TRUE(bitwise_equal(values_of(a), values_of(b)));
    EXPECT_EQ(kdt::default_generator().get_state(), g2.get_state());
    kdt::default_generator().set_state(saved);
  }
  {
    // xavier_uniform_(gain 2) on a conv weight: bound = sqrt(3) * 2 * sqrt(2 / 216).
    kdt::Generator g1(11), g2(11);
    Kokkos::View<float****, Kokkos::LayoutLeft> a("a", 16, 8, 3, 3);
    Kokkos::View<float****> b("b", 16, 8, 3, 3);
    kdt::xavier_uniform_(Kokkos::DefaultExecutionSpace(), a, 2.0, g1);
    const double bound = std::sqrt(3.0) * (2.0 * std::sqrt(2.0 / 216.0));
    EXPECT_EQ(bound, std::sqrt(3.0) * (2 * 0.09622504486493763));
    kdt::uniform_(b, -bound, bound, g2);
    EXPECT_TRUE(bitwise_equal(values_of(a), values_of(b)));
    EXPECT_EQ(g1.get_state(), g2.get_state());
  }
  {
    // xavier_normal_(default gain) on [5, 9]: std = sqrt(2 / 14).
    kdt::Generator g1(13), g2(13);
    Kokkos::View<double**> a("a", 5, 9), b("b", 5, 9);
    kdt::xavier_normal_(a, 1.0, g1);
    kdt::normal_(b, 0.0, std::sqrt(2.0 / 14.0), g2);
    EXPECT_TRUE(bitwise_equal(values_of(a), values_of(b)));
    EXPECT_EQ(g1.get_state(), g2.get_state());
  }
  {
    // trunc_normal_ is the random op itself, reachable with the inits.
    kdt::Generator g1(17);
    M a("a", 5, 9);
    kdt::trunc_normal_(a, 0.0, 0.02, -0.04, 0.04, g1);
    for (float x : values_of(a)) {
      EXPECT_GE(x, -0.04f);
      EXPECT_LE(x, 0.04f);
    }
  }
}

// A DTensor init gives the global tensor a 1-rank init gives, for every mesh shape of 1
// and 2 dims, every placement list, LayoutRight and LayoutLeft, from the tracker and from
// a Generator; the tracker advances exactly like the 1-rank Generator.
template <class Layout>
void check_dtensor_inits_equal_one_rank() {
  using W2 = kdt::DTensor<float**, Layout>;
  using W3 = kdt::DTensor<double***, Layout>;
  const std::vector<std::int64_t> shape2 = {9, 13}, shape3 = {6, 5, 3};
  const std::uint64_t seed = 2024;

  // The reference: one process, plain Views, one Generator, the same sequence of inits.
  kdt::Generator ref(seed);
  Kokkos::View<float**> r1("r1", 9, 13), r2("r2", 9, 13), r5("r5", 9, 13);
  Kokkos::View<double***> r3("r3", 6, 5, 3), r4("r4", 6, 5, 3);
  kdt::kaiming_uniform_(r1, std::sqrt(5.0), "fan_in", "leaky_relu", ref);
  kdt::kaiming_normal_(r2, 0.1, "fan_out", "leaky_relu", ref);
  kdt::xavier_uniform_(r3, kdt::calculate_gain("tanh"), ref);
  kdt::xavier_normal_(r4, 1.0, ref);
  kdt::trunc_normal_(r5, 0.0, 0.02, -0.04, 0.04, ref);
  const auto e1 = values_of(r1), e2 = values_of(r2), e5 = values_of(r5);
  const auto e3 = values_of(r3), e4 = values_of(r4);

  int cases = 0;
  for (int ndim : {1, 2}) {
    for (const auto& mesh_shape : mesh_shapes(ndim)) {
      std::vector<std::string> names;
      for (int m = 0; m < ndim; ++m) names.push_back("m" + std::to_string(m));
      const auto mesh = kdt::init_device_mesh(mesh_shape, names);
      const auto lists2 = placement_lists(ndim, 2);
      const auto lists3 = placement_lists(ndim, 3);
      for (std::size_t i = 0; i < lists2.size(); ++i) {
        const auto& p2 = lists2[i];
        const auto& p3 = lists3[i % lists3.size()];
        const auto p3b = lists3[(i * 7 + 3) % lists3.size()];
        const bool from_tracker = (i % 2) == 0;
        kdt::manual_seed(seed, mesh);
        kdt::Generator gen(seed);
        // Deferred allocation, allocated right before the init (the "meta" flow).
        W2 t1("t1", mesh, shape2, p2, kdt::deferred_allocation);
        W2 t2("t2", mesh, shape2, p2, kdt::deferred_allocation);
        W2 t5("t5", mesh, shape2, p2, kdt::deferred_allocation);
        W3 t3("t3", mesh, shape3, p3, kdt::deferred_allocation);
        W3 t4("t4", mesh, shape3, p3b, kdt::deferred_allocation);
        for (auto* t : {&t1, &t2, &t5}) t->allocate();
        t3.allocate();
        t4.allocate();
        if (from_tracker) {
          kdt::kaiming_uniform_(t1, std::sqrt(5.0));
          kdt::kaiming_normal_(Kokkos::DefaultExecutionSpace(), t2, 0.1, "FAN_OUT");
          kdt::xavier_uniform_(t3, kdt::calculate_gain("tanh"));
          kdt::xavier_normal_(t4);
          kdt::trunc_normal_(t5, 0.0, 0.02, -0.04, 0.04);
          EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), ref.get_state());
        } else {
          kdt::kaiming_uniform_(t1, std::sqrt(5.0), "fan_in", "leaky_relu", gen);
          kdt::kaiming_normal_(Kokkos::DefaultExecutionSpace(), t2, 0.1, "fan_out", "leaky_relu",
                               gen);
          kdt::xavier_uniform_(t3, kdt::calculate_gain("tanh"), gen);
          kdt::xavier_normal_(Kokkos::DefaultExecutionSpace(), t4, 1.0, gen);
          kdt::trunc_normal_(t5, 0.0, 0.02, -0.04, 0.04, gen);
          EXPECT_EQ(gen.get_state(), ref.get_state());
          EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{seed, 0}));
        }
        const std::string where = "mesh " + mesh.to_string() + " placements " +
                                  kdt::to_string(p2[0]) +
                                  (ndim > 1 ? "," + kdt::to_string(p2[1]) : "");
        EXPECT_TRUE(bitwise_equal(values_of(t1.full_tensor()), e1)) << where;
        EXPECT_TRUE(bitwise_equal(values_of(t2.full_tensor()), e2)) << where;
        EXPECT_TRUE(bitwise_equal(values_of(t3.full_tensor()), e3)) << where;
        EXPECT_TRUE(bitwise_equal(values_of(t4.full_tensor()), e4)) << where;
        EXPECT_TRUE(bitwise_equal(values_of(t5.full_tensor()), e5)) << where;
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 0);
}

TEST_F(Init, DTensorInitEqualsOneRankInitLayoutRight) {
  check_dtensor_inits_equal_one_rank<Kokkos::LayoutRight>();
}
TEST_F(Init, DTensorInitEqualsOneRankInitLayoutLeft) {
  check_dtensor_inits_equal_one_rank<Kokkos::LayoutLeft>();
}

// Sample statistics on a big tensor: the sample std is the formula's std (within 1%), the
// uniform inits stay inside [-bound, bound) and the mean is near 0.
TEST_F(Init, SampleStatisticsMatchTheFormulas) {
  const std::int64_t out = 512, in = 1024;  // 524288 samples: relative error of std ~0.1%
  struct Stats {
    double mean, std, max_abs;
  };
  auto stats = [](const std::vector<float>& x) {
    double sum = 0, sum2 = 0, max_abs = 0;
    for (float v : x) {
      sum += v;
      sum2 += static_cast<double>(v) * v;
      max_abs = std::max(max_abs, std::fabs(static_cast<double>(v)));
    }
    const double n = static_cast<double>(x.size());
    const double mean = sum / n;
    return Stats{mean, std::sqrt(sum2 / n - mean * mean), max_abs};
  };
  kdt::Generator gen(99);
  Kokkos::View<float**> w("w", out, in);

  const double ku_std = std::sqrt(2.0) / std::sqrt(static_cast<double>(in));
  kdt::kaiming_uniform_(w, 0.0, "fan_in", "relu", gen);
  Stats s = stats(values_of(w));
  EXPECT_NEAR(s.std, ku_std, 0.01 * ku_std);
  EXPECT_LT(s.max_abs, std::sqrt(3.0) * ku_std);
  EXPECT_NEAR(s.mean, 0.0, 0.01 * ku_std);

  const double kn_std =
      kdt::calculate_gain("leaky_relu", 0.2) / std::sqrt(static_cast<double>(out));
  kdt::kaiming_normal_(w, 0.2, "fan_out", "leaky_relu", gen);
  s = stats(values_of(w));
  EXPECT_NEAR(s.std, kn_std, 0.01 * kn_std);
  EXPECT_NEAR(s.mean, 0.0, 0.01 * kn_std);

  const double x_std = 0.5 * std::sqrt(2.0 / static_cast<double>(in + out));
  kdt::xavier_uniform_(w, 0.5, gen);
  s = stats(values_of(w));
  EXPECT_NEAR(s.std, x_std, 0.01 * x_std);
  EXPECT_LT(s.max_abs, std::sqrt(3.0) * x_std);

  kdt::xavier_normal_(w, 0.5, gen);
  s = stats(values_of(w));
  EXPECT_NEAR(s.std, x_std, 0.01 * x_std);
  EXPECT_NEAR(s.mean, 0.0, 0.01 * x_std);
}

// zeros_, ones_, constant_: the values, on Views and DTensors (Partial: the DTensor's value
// is the constant), no RNG state change.
TEST_F(Init, ConstantInits) {
  kdt::Generator gen(5);
  const kdt::RNGState saved = kdt::default_generator().get_state();
  Kokkos::View<double**, Kokkos::LayoutLeft> v("v", 3, 4);
  kdt::constant_(v, 2.5);
  for (double x : values_of(v)) EXPECT_EQ(x, 2.5);
  kdt::ones_(Kokkos::DefaultExecutionSpace(), v);
  for (double x : values_of(v)) EXPECT_EQ(x, 1.0);
  kdt::zeros_(v);
  for (double x : values_of(v)) EXPECT_EQ(x, 0.0);
  Kokkos::View<std::int64_t*> iv("iv", 5);
  kdt::constant_(iv, std::int64_t(1) << 60);  // rank 1 is fine for constants
  for (std::int64_t x : values_of(iv)) EXPECT_EQ(x, std::int64_t(1) << 60);
  EXPECT_EQ(kdt::default_generator().get_state(), saved);

  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(8, mesh);
  for (const auto& placement : {kdt::Placement{kdt::Shard(0)}, kdt::Placement{kdt::Replicate()},
                                kdt::Placement{kdt::Partial()}}) {
    kdt::DTensor<float**> t("t", mesh, {5, 3}, {placement}, kdt::deferred_allocation);
    t.allocate();
    kdt::constant_(t, -0.75f);
    for (float x : values_of(t.full_tensor())) EXPECT_EQ(x, -0.75f) << kdt::to_string(placement);
    kdt::ones_(t);
    for (float x : values_of(t.full_tensor())) EXPECT_EQ(x, 1.0f) << kdt::to_string(placement);
    kdt::zeros_(Kokkos::DefaultExecutionSpace(), t);
    for (float x : values_of(t.full_tensor())) EXPECT_EQ(x, 0.0f) << kdt::to_string(placement);
  }
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{8, 0}));
}

// A tensor with no elements is left alone, with no state change (PyTorch: a no-op).
TEST_F(Init, ZeroElementTensorsAreNoOps) {
  kdt::Generator gen(1);
  Kokkos::View<float**> empty("empty", 0, 5);
  kdt::kaiming_uniform_(empty, 0.0, "fan_in", "leaky_relu", gen);
  kdt::kaiming_normal_(empty, 0.0, "fan_in", "leaky_relu", gen);
  kdt::xavier_uniform_(empty, 1.0, gen);
  kdt::xavier_normal_(empty, 1.0, gen);
  Kokkos::View<float**> none("none", 0, 0);  // fan_in + fan_out = 0
  kdt::xavier_normal_(none, 1.0, gen);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{1, 0}));
}

// Every bad argument: std::invalid_argument in the project's format, nothing changed.
TEST_F(Init, BadArgumentsThrowAndChangeNothing) {
  kdt::Generator gen(77);
  Kokkos::View<float**> w("w", 4, 6);
  kdt::constant_(w, 3.0f);
  Kokkos::View<float*> bias("bias", 6);
  Kokkos::View<float> scalar("scalar");

  expect_throw_message<std::invalid_argument>(
      [&] { kdt::kaiming_uniform_(w, 0.0, "fan_avg", "relu", gen); },
      "KokkosDTensor::kaiming_uniform_: argument 'mode' = \"fan_avg\": must be \"fan_in\" or "
      "\"fan_out\"");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::kaiming_normal_(w, 0.0, "fan_in", "gelu", gen); },
      "KokkosDTensor::kaiming_normal_: argument 'nonlinearity' = \"gelu\": must be one of linear, "
      "conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, sigmoid, "
      "tanh, relu, leaky_relu, selu");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::kaiming_uniform_(w, -0.5, "fan_in", "leaky_relu", gen); },
      "KokkosDTensor::kaiming_uniform_: argument 'a' = -0.5: the negative slope of the rectifier "
      "must be finite and >= 0");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::kaiming_uniform_(bias, 0.0, "fan_in", "leaky_relu", gen); },
      "KokkosDTensor::kaiming_uniform_: argument 't' = shape [6]: must have at least 2 dims: fan "
      "in and fan out can not be computed for a tensor with fewer than 2 dimensions");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::xavier_normal_(scalar, 1.0, gen); },
      "KokkosDTensor::xavier_normal_: argument 't' = shape []: must have at least 2 dims: fan in "
      "and fan out can not be computed for a tensor with fewer than 2 dimensions");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::xavier_uniform_(w, 0.0, gen); },
      "KokkosDTensor::xavier_uniform_: argument 'gain' = 0: must be finite and > 0");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::xavier_uniform_(w, -1.0, gen); },
      "KokkosDTensor::xavier_uniform_: argument 'gain' = -1: must be finite and > 0");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::xavier_normal_(w, std::nan(""), gen); },
      "KokkosDTensor::xavier_normal_: argument 'gain' = nan: must be finite and > 0");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::calculate_gain("softplus"); },
      "KokkosDTensor::calculate_gain: argument 'nonlinearity' = \"softplus\": must be one of "
      "linear, conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, "
      "sigmoid, tanh, relu, leaky_relu, selu");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::calculate_gain("leaky_relu", -0.1); },
      "KokkosDTensor::calculate_gain: argument 'param' = -0.10000000000000001: the leaky_relu "
      "negative slope must be finite and >= 0");
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::calculate_fan_in_and_fan_out({5}); },
      "KokkosDTensor::calculate_fan_in_and_fan_out: argument 'shape' = shape [5]: must have at "
      "least 2 dims: fan in and fan out can not be computed for a tensor with fewer than 2 "
      "dimensions");
  // A bound that is not finite in float (gain 1e300): the uniform check, named after the init.
  EXPECT_THROW(kdt::xavier_uniform_(w, 1e300, gen), std::invalid_argument);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{77, 0}));
  for (float x : values_of(w)) EXPECT_EQ(x, 3.0f);

  // DTensors: the same checks, plus the random ops' own (Partial, not allocated); the
  // tracker is unchanged.
  const auto mesh = kdt::init_device_mesh({world_size()});
  kdt::manual_seed(31, mesh);
  kdt::DTensor<float**> t("t", mesh, {8, 3}, {kdt::Shard(0)});
  kdt::DTensor<float*> b("b", mesh, {8}, {kdt::Shard(0)});
  kdt::DTensor<float**> partial("partial", mesh, {8, 3}, {kdt::Partial()});
  kdt::DTensor<float**> later("later", mesh, {8, 3}, {kdt::Shard(0)}, kdt::deferred_allocation);
  EXPECT_THROW(kdt::kaiming_uniform_(t, 0.0, "fan", "relu"), std::invalid_argument);
  EXPECT_THROW(kdt::kaiming_uniform_(b), std::invalid_argument);
  EXPECT_THROW(kdt::xavier_normal_(t, -2.0), std::invalid_argument);
  if (mesh.size() > 1) {  // Partial on a mesh dim of size 1 is accepted
    expect_throw_message<std::invalid_argument>(
        [&] { kdt::kaiming_uniform_(partial); },
        "KokkosDTensor::kaiming_uniform_: argument 'placements' = (P): random ops need Shard or "
        "Replicate placements: a Partial DTensor holds summands, not values");
  }
  expect_throw_message<std::runtime_error>(
      [&] { kdt::xavier_uniform_(later); },
      "KokkosDTensor::xavier_uniform_: the DTensor \"later\" is not allocated (call allocate() "
      "first)");
  expect_throw_message<std::runtime_error>(
      [&] { kdt::zeros_(later); },
      "KokkosDTensor::zeros_: the DTensor \"later\" is not allocated (call allocate() first)");
  EXPECT_EQ(kdt::rng_tracker()->get_rng_state(), (kdt::RNGState{31, 0}));
}

// The inits on a Kokkos::DynRankView (issue 28): the values and state advance of the same
// init on the View of its rank and extents (both layouts); its fans are the View's; a
// DynRankView of rank 1 has none, which is refused as for a View.
template <class Layout>
void check_dyn_rank_view_inits() {
  Kokkos::View<float***, Layout> view("view", 5, 3, 7);
  Kokkos::DynRankView<float, Layout> drv("drv", 5, 3, 7);
  const auto fans = kdt::calculate_fan_in_and_fan_out(drv);
  EXPECT_EQ(fans.fan_in, kdt::calculate_fan_in_and_fan_out(view).fan_in);
  EXPECT_EQ(fans.fan_out, kdt::calculate_fan_in_and_fan_out(view).fan_out);
  const kdt::RNGState start{42, 16};
  for (int which = 0; which < 9; ++which) {
    kdt::Generator gen_view, gen_drv;
    gen_view.set_state(start);
    gen_drv.set_state(start);
    kdt::default_generator().set_state(start);
    run_init(which, view, gen_view);
    const kdt::RNGState default_after_view = kdt::default_generator().get_state();
    kdt::default_generator().set_state(start);
    run_init(which, drv, gen_drv);
    EXPECT_EQ(values_of(drv), values_of(view)) << which;
    EXPECT_EQ(gen_drv.get_state(), gen_view.get_state()) << which;
    EXPECT_EQ(kdt::default_generator().get_state(), default_after_view) << which;
  }
  Kokkos::DynRankView<float, Layout> bias("bias", 7);
  kdt::Generator gen(3);
  expect_throw_message<std::invalid_argument>(
      [&] { kdt::xavier_uniform_(bias, 1.0, gen); },
      "KokkosDTensor::xavier_uniform_: argument 't' = shape [7]: must have at least 2 dims: fan "
      "in and fan out can not be computed for a tensor with fewer than 2 dimensions");
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{3, 0}));
}

TEST_F(Init, DynRankViewAsTheViewLayoutRight) { check_dyn_rank_view_inits<Kokkos::LayoutRight>(); }
TEST_F(Init, DynRankViewAsTheViewLayoutLeft) { check_dyn_rank_view_inits<Kokkos::LayoutLeft>(); }

TEST_F(Init, HalfAndBHalfInitsAreTheRoundedFloatInits) {
  check_reduced_precision_inits<Kokkos::Experimental::half_t>();
#if defined(KOKKOS_BHALF_T_IS_FLOAT)
  check_reduced_precision_inits<Kokkos::Experimental::bhalf_t>();
#endif
}
