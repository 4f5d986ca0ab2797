// dropout_ for training and bernoulli_ with per-element probabilities (issue 18):
// dropout_backward_, dropout_mask_ and native_dropout_ regenerate exactly the mask dropout_
// applied, from the state it returned, on Views and on sharded DTensors; bernoulli_(t,
// probabilities) follows the threshold rule of bernoulli_(t, p) with each element's p, and
// rejects a p outside [0, 1] naming the first bad index, changing nothing.

#include <gtest/gtest.h>

#include "TestHelpers.hpp"

#include <KokkosDTensor.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

template <class View>
std::vector<typename View::non_const_value_type> values(const View& v) {
  const auto host = kdt::to_host_row_major(v);
  return std::vector<typename View::non_const_value_type>(host.data(), host.data() + host.size());
}

template <class T>
void check_view_dropout(double p) {
  Kokkos::View<T**> t("t", 13, 29);
  Kokkos::View<T**, Kokkos::LayoutLeft> grad("grad", 13, 29);
  Kokkos::View<bool**> mask("mask", 13, 29);
  Kokkos::deep_copy(t, T(1));
  Kokkos::deep_copy(grad, T(1));
  kdt::Generator gen(77);
  gen.set_state({77, 4096});
  const kdt::RNGState drawn = kdt::dropout_(t, p, gen);
  EXPECT_EQ(drawn, (kdt::RNGState{77, 4096}));
  const kdt::RNGState after = gen.get_state();
  kdt::dropout_backward_(grad, p, drawn);
  kdt::dropout_mask_<T>(mask, p, drawn);
  EXPECT_EQ(gen.get_state(), after) << "regenerating the mask advances nothing";
  const auto out = values(t);
  // The gradient of ones is the forward output of ones, bit for bit.
  const auto g = values(grad);
  ASSERT_EQ(g.size(), out.size());
  EXPECT_EQ(std::memcmp(g.data(), out.data(), g.size() * sizeof(T)), 0);
  const auto m = values(mask);
  int kept = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(m[i], out[i] != T(0)) << "element " << i;
    kept += m[i];
  }
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, static_cast<int>(out.size()));

  // native_dropout_ from the same state: the same output, the same mask.
  Kokkos::View<T**> t2("t2", 13, 29);
  Kokkos::View<T**> mask2("mask2", 13, 29);
  Kokkos::deep_copy(t2, T(1));
  kdt::Generator gen2(77);
  gen2.set_state({77, 4096});
  EXPECT_EQ(kdt::native_dropout_(t2, mask2, p, gen2), drawn);
  EXPECT_EQ(gen2.get_state(), after);
  const auto out2 = values(t2);
  EXPECT_EQ(std::memcmp(out2.data(), out.data(), out.size() * sizeof(T)), 0);
  const auto m2 = values(mask2);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(m2[i], T(m[i] ? 1 : 0));
}

TEST(DropoutTraining, ViewBackwardAndMaskRegenerateTheForwardMask) {
  check_view_dropout<float>(0.3);
  check_view_dropout<double>(0.3);
}

TEST(DropoutTraining, BadArgumentsNameThemselves) {
  Kokkos::View<float*> grad("grad", 8);
  try {
    kdt::dropout_backward_(grad, 1.5, kdt::RNGState{1, 0});
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "KokkosDTensor::dropout_backward_: argument 'p' = 1.5: must lie in [0, 1]");
  }
  try {
    kdt::dropout_mask_(grad, 0.5, kdt::RNGState{1, 6});
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "KokkosDTensor::dropout_mask_: argument 'state.offset' = 6: must be a multiple of 4");
  }
}

// Every mesh and placement over all ranks: the sharded forward, backward and mask gather to
// the View results.
TEST(DropoutTraining, DTensorBackwardAndMaskAreShardingInvariant) {
  const double p = 0.25;
  Kokkos::View<float**> reference("reference", 11, 17);
  Kokkos::deep_copy(reference, 1.0f);
  kdt::Generator gen(5);
  const kdt::RNGState drawn = kdt::dropout_(reference, p, gen);
  const auto expected = values(reference);
  for (const auto& shape : TestHelpers::mesh_shapes(2)) {
    const auto mesh = kdt::init_device_mesh(shape);
    for (const auto& placements : TestHelpers::placement_lists(2, 2)) {
      kdt::DTensor<float**> grad("grad", mesh, {11, 17}, placements);
      kdt::DTensor<float**> mask("mask", mesh, {11, 17}, placements);
      Kokkos::deep_copy(grad.local(), 1.0f);
      kdt::dropout_backward_(grad, p, drawn);
      kdt::dropout_mask_(mask, p, drawn);
      const auto g = values(grad.full_tensor());
      const auto m = values(mask.full_tensor());
      ASSERT_EQ(g.size(), expected.size());
      EXPECT_EQ(std::memcmp(g.data(), expected.data(), g.size() * sizeof(float)), 0)
          << "mesh " << shape[0] << "x" << shape[1] << " " << kdt::to_string(placements);
      for (std::size_t i = 0; i < m.size(); ++i)
        ASSERT_EQ(m[i], expected[i] != 0.0f ? 1.0f : 0.0f) << kdt::to_string(placements);
    }
  }
}

TEST(BernoulliProbabilities, EqualProbabilitiesGiveTheScalarForm) {
  for (double p : {0.0, 0.3, 0.5, 1.0}) {
    Kokkos::View<double**> probabilities("p", 9, 14);
    Kokkos::deep_copy(probabilities, p);
    Kokkos::View<double**> per_element("per_element", 9, 14);
    Kokkos::View<double**> scalar("scalar", 9, 14);
    kdt::Generator a(3), b(3);
    kdt::bernoulli_(per_element, probabilities, a);
    kdt::bernoulli_(scalar, p, b);
    EXPECT_EQ(a.get_state(), b.get_state());
    EXPECT_EQ(values(per_element), values(scalar)) << "p = " << p;
    Kokkos::View<float*> pf("pf", 37), per_f("per_f", 37), scalar_f("scalar_f", 37);
    Kokkos::deep_copy(pf, static_cast<float>(p));
    kdt::bernoulli_(per_f, pf, a);
    kdt::bernoulli_(scalar_f, static_cast<double>(static_cast<float>(p)), b);
    EXPECT_EQ(values(per_f), values(scalar_f)) << "p = " << p;
  }
}

TEST(BernoulliProbabilities, ZeroAndOneAreExact) {
  Kokkos::View<float*> probabilities("p", 1000);
  auto host = Kokkos::create_mirror_view(probabilities);
  for (int i = 0; i < 1000; ++i) host(i) = static_cast<float>(i % 2);
  Kokkos::deep_copy(probabilities, host);
  Kokkos::View<float*> t("t", 1000);
  kdt::Generator gen(9);
  kdt::bernoulli_(Kokkos::DefaultExecutionSpace(), t, probabilities, gen);
  const auto v = values(t);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(v[i], static_cast<float>(i % 2)) << i;
}

TEST(BernoulliProbabilities, BadProbabilityNamesTheIndexAndChangesNothing) {
  Kokkos::View<float**> probabilities("p", 4, 5);
  auto host = Kokkos::create_mirror_view(probabilities);
  Kokkos::deep_copy(host, 0.5f);
  host(2, 3) = 1.5f;
  host(3, 1) = -1.0f;
  Kokkos::deep_copy(probabilities, host);
  Kokkos::View<float**> t("t", 4, 5);
  Kokkos::deep_copy(t, 7.0f);
  kdt::Generator gen(1);
  gen.set_state({1, 40});
  try {
    kdt::bernoulli_(t, probabilities, gen);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "KokkosDTensor::bernoulli_: argument 'probabilities' = 1.5 at index [2, 3]: must "
              "lie in [0, 1]");
  }
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{1, 40}));
  for (float x : values(t)) EXPECT_EQ(x, 7.0f);
  Kokkos::View<float*> wrong_shape("w", 20);
  EXPECT_THROW(kdt::bernoulli_(t, wrong_shape, gen), std::invalid_argument);
  EXPECT_EQ(gen.get_state(), (kdt::RNGState{1, 40}));
}

TEST(BernoulliProbabilities, DTensorMatchesTheView) {
  Kokkos::View<float**> probabilities("p", 10, 12);
  auto host = Kokkos::create_mirror_view(probabilities);
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 12; ++j) host(i, j) = static_cast<float>((i * 12 + j) % 11) / 10.0f;
  Kokkos::deep_copy(probabilities, host);
  Kokkos::View<float**> reference("reference", 10, 12);
  kdt::Generator gen(21);
  kdt::bernoulli_(reference, probabilities, gen);
  const auto expected = values(reference);
  for (const auto& shape : TestHelpers::mesh_shapes(2)) {
    const auto mesh = kdt::init_device_mesh(shape);
    for (const auto& placements : TestHelpers::placement_lists(2, 2)) {
      auto p = kdt::distribute_tensor<kdt::DTensor<float**>>(probabilities, mesh, placements);
      kdt::DTensor<float**> t("t", mesh, {10, 12}, placements);
      kdt::Generator g(21);
      kdt::bernoulli_(t, p, g);
      EXPECT_EQ(g.get_state(), gen.get_state());
      EXPECT_EQ(values(t.full_tensor()), expected) << kdt::to_string(placements);
    }
  }
}

}  // namespace
