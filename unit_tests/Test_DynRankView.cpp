// Random ops on Kokkos::DynRankView (issue 28): on a DynRankView of rank 0..4, LayoutRight,
// LayoutLeft or a strided subview, every op writes the bytes that it writes on the View of
// the same rank and extents drawn from the same generator state, and advances the generator
// to the same state; per-element bernoulli_ takes its probabilities from either kind; bad
// input is refused with the library's message and changes nothing.

#include <gtest/gtest.h>

#include "DynRankViewValues.hpp"
#include "TestSpace.hpp"

#include <KokkosDTensor_Rng.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_DynRankView.hpp>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

using Extents = std::vector<std::int64_t>;

// The shapes tried: odd extents, so that rows end inside Philox blocks.
std::vector<Extents> shapes() { return {{}, {127}, {5, 127}, {3, 5, 127}, {3, 5, 3, 127}}; }

// The row-major bytes of a View.
template <class ViewType>
std::vector<unsigned char> row_major_bytes(const ViewType& view) {
  Kokkos::fence();
  const auto host = kdt::to_host_row_major(view);
  const auto* bytes = reinterpret_cast<const unsigned char*>(host.data());
  return std::vector<unsigned char>(bytes, bytes + host.size() * sizeof(*host.data()));
}

// Through Kokkos' own indexing (DynRankViewValues.hpp).
template <class T, class... Properties>
std::vector<unsigned char> row_major_bytes(const Kokkos::DynRankView<T, Properties...>& view) {
  const std::vector<T> values = dyn_rank_view_values(view);
  const auto* b = reinterpret_cast<const unsigned char*>(values.data());
  return std::vector<unsigned char>(b, b + values.size() * sizeof(T));
}

// Runs `op(target, gen)` on the DynRankView and on the View of every shape (both of layout
// Layout), each from a generator at the same state, after filling both with the same values
// (dropout_ reads them); expects the same bytes and the same generator state afterwards.
template <class T, class Layout, class Op>
void expect_op_as_on_view(const char* what, Op op) {
  const kdt::RNGState start{20261215, 1u << 20};
  for (const Extents& extents : shapes()) {
    with_view<T, Layout>(extents, [&](const auto& view) {
      const auto drv = make_dyn_rank_view<T, Layout>(extents);
      ASSERT_EQ(drv.rank(), extents.size());
      kdt::Generator init_view(7), init_drv(7);
      if constexpr (std::is_floating_point<T>::value) {
        kdt::uniform_(view, 1.0, 2.0, init_view);
        kdt::uniform_(drv, 1.0, 2.0, init_drv);
      }
      const auto before = row_major_bytes(view);
      kdt::Generator gen_view, gen_drv;
      gen_view.set_state(start);
      gen_drv.set_state(start);
      op(view, gen_view);
      op(drv, gen_drv);
      const std::string shape = what + std::string(" rank ") + std::to_string(extents.size());
      EXPECT_EQ(row_major_bytes(drv), row_major_bytes(view)) << shape;
      if (view.size() > 1) EXPECT_NE(row_major_bytes(view), before) << shape << ": wrote nothing";
      EXPECT_EQ(gen_drv.get_state(), gen_view.get_state()) << shape;
    });
  }
}

template <class Layout>
void check_every_op() {
  const auto uniform = [](const auto& t, kdt::Generator& g) { kdt::uniform_(t, -3.0, 5.0, g); };
  expect_op_as_on_view<float, Layout>("uniform_ float", uniform);
  expect_op_as_on_view<double, Layout>("uniform_ double", uniform);
  expect_op_as_on_view<float, Layout>(
      "uniform_ [0, 1)", [](const auto& t, kdt::Generator& g) { kdt::uniform_(t, g); });
  const auto normal = [](const auto& t, kdt::Generator& g) {
    kdt::normal_(TestSpace(), t, 1.5, 2.0, g);  // with an execution-space instance
  };
  expect_op_as_on_view<float, Layout>("normal_ float", normal);
  expect_op_as_on_view<double, Layout>("normal_ double", normal);
  const auto bernoulli = [](const auto& t, kdt::Generator& g) { kdt::bernoulli_(t, 0.3, g); };
  expect_op_as_on_view<float, Layout>("bernoulli_ float", bernoulli);
  expect_op_as_on_view<std::int32_t, Layout>("bernoulli_ int32", bernoulli);
  const auto bits = [](const auto& t, kdt::Generator& g) { kdt::random_bits_(t, g); };
  expect_op_as_on_view<std::uint32_t, Layout>("random_bits_ uint32", bits);
  expect_op_as_on_view<std::uint64_t, Layout>("random_bits_ uint64", bits);
  expect_op_as_on_view<std::int64_t, Layout>(
      "randint_", [](const auto& t, kdt::Generator& g) { kdt::randint_(t, -50, 1000, g); });
  expect_op_as_on_view<double, Layout>(
      "exponential_", [](const auto& t, kdt::Generator& g) { kdt::exponential_(t, 0.5, g); });
  expect_op_as_on_view<float, Layout>(
      "log_normal_", [](const auto& t, kdt::Generator& g) { kdt::log_normal_(t, 0.0, 0.5, g); });
  expect_op_as_on_view<std::int64_t, Layout>(
      "geometric_", [](const auto& t, kdt::Generator& g) { kdt::geometric_(t, 0.2, g); });
  expect_op_as_on_view<float, Layout>("trunc_normal_", [](const auto& t, kdt::Generator& g) {
    kdt::trunc_normal_(t, 0.0, 1.0, -1.0, 1.5, g);
  });
  // dropout_ and the ops that regenerate its mask from the state it returns (here: the
  // generator's state, as dropout_ would have returned it).
  expect_op_as_on_view<float, Layout>("dropout_", [](const auto& t, kdt::Generator& g) {
    const kdt::RNGState before = g.get_state();
    EXPECT_EQ(kdt::dropout_(t, 0.25, g), before);
  });
  expect_op_as_on_view<double, Layout>("dropout_backward_", [](const auto& t, kdt::Generator& g) {
    kdt::dropout_backward_(t, 0.4, g.get_state());
  });
  expect_op_as_on_view<float, Layout>("dropout_mask_", [](const auto& t, kdt::Generator& g) {
    kdt::dropout_mask_(TestSpace(), t, 0.4, g.get_state());
  });
  expect_op_as_on_view<std::uint8_t, Layout>(
      "dropout_mask_ uint8 (of double)",
      [](const auto& t, kdt::Generator& g) { kdt::dropout_mask_<double>(t, 0.4, g.get_state()); });
}

// native_dropout_ and per-element bernoulli_ take a second tensor: on DynRankViews, and on a
// DynRankView with a View (or the reverse), they write what they write on two Views.
template <class Layout>
void check_two_tensor_ops() {
  const kdt::RNGState start{99, 4096};
  for (const Extents& extents : shapes()) {
    with_view<double, Layout>(extents, [&](const auto& view) {
      using ViewType = std::decay_t<decltype(view)>;
      const std::string shape = "rank " + std::to_string(extents.size());
      const auto drv = make_dyn_rank_view<double, Layout>(extents);
      // Probabilities in [0, 1], the same in a View and a DynRankView.
      const auto p_view = kdt::Impl::allocate_view<ViewType>("p", extents);
      const auto p_drv = make_dyn_rank_view<double, Layout>(extents);
      kdt::Generator pv(5), pd(5);
      kdt::uniform_(p_view, pv);
      kdt::uniform_(p_drv, pd);
      const auto reference = kdt::Impl::allocate_view<ViewType>("reference", extents);
      kdt::Generator g_ref, g;
      g_ref.set_state(start);
      kdt::bernoulli_(reference, p_view, g_ref);
      const auto expected = row_major_bytes(reference);
      for (int form = 0; form < 3; ++form) {
        g.set_state(start);
        if (form == 0) kdt::bernoulli_(drv, p_drv, g);
        if (form == 1) kdt::bernoulli_(TestSpace(), drv, p_view, g);
        if (form == 2) {
          kdt::bernoulli_(view, p_drv, g);
          EXPECT_EQ(row_major_bytes(view), expected) << shape << " View with DynRankView p";
        } else {
          EXPECT_EQ(row_major_bytes(drv), expected) << shape << " form " << form;
        }
        EXPECT_EQ(g.get_state(), g_ref.get_state()) << shape << " form " << form;
      }
      // native_dropout_: the output and the mask.
      const auto mask_view = kdt::Impl::allocate_view<ViewType>("mask", extents);
      const auto mask_drv = make_dyn_rank_view<double, Layout>(extents);
      Kokkos::deep_copy(reference, 1.5);
      Kokkos::deep_copy(drv, 1.5);
      g_ref.set_state(start);
      g.set_state(start);
      const kdt::RNGState ref_drawn = kdt::native_dropout_(reference, mask_view, 0.3, g_ref);
      const kdt::RNGState drawn = kdt::native_dropout_(drv, mask_drv, 0.3, g);
      EXPECT_EQ(drawn, ref_drawn) << shape;
      EXPECT_EQ(g.get_state(), g_ref.get_state()) << shape;
      EXPECT_EQ(row_major_bytes(drv), row_major_bytes(reference)) << shape;
      EXPECT_EQ(row_major_bytes(mask_drv), row_major_bytes(mask_view)) << shape;
    });
  }
}

// A strided DynRankView (a subdynrankview of a LayoutLeft one) gets what the same subview
// of a View gets, and the default generator serves DynRankViews as Views.
void check_subview_and_default_generator() {
  const Kokkos::View<float***, Kokkos::LayoutLeft, TestSpace> view("view", 5, 3, 127);
  const auto drv = make_dyn_rank_view<float, Kokkos::LayoutLeft>({5, 3, 127});
  const auto rows = Kokkos::make_pair(1, 4);
  const auto sub_view = Kokkos::subview(view, rows, Kokkos::ALL(), Kokkos::make_pair(2, 101));
  const auto sub_drv = Kokkos::subdynrankview(drv, rows, Kokkos::ALL(), Kokkos::make_pair(2, 101));
  ASSERT_EQ(sub_drv.rank(), 3u);
  const kdt::RNGState start{31, 12};
  kdt::Generator g_view, g_drv;
  g_view.set_state(start);
  g_drv.set_state(start);
  kdt::uniform_(sub_view, g_view);
  kdt::uniform_(sub_drv, g_drv);
  EXPECT_EQ(row_major_bytes(sub_drv), row_major_bytes(sub_view));
  EXPECT_EQ(row_major_bytes(drv), row_major_bytes(view));  // outside the subview: untouched
  EXPECT_EQ(g_drv.get_state(), g_view.get_state());
  // The default generator, with an execution-space instance and without.
  kdt::default_generator().set_state(start);
  kdt::normal_(view, 0.5, 3.0);
  kdt::exponential_(TestSpace(), view);
  const kdt::RNGState after_view = kdt::default_generator().get_state();
  kdt::default_generator().set_state(start);
  kdt::normal_(drv, 0.5, 3.0);
  kdt::exponential_(TestSpace(), drv);
  EXPECT_EQ(kdt::default_generator().get_state(), after_view);
  EXPECT_EQ(row_major_bytes(drv), row_major_bytes(view));
}

// to_host_row_major of a DynRankView: its rank, extents and elements in row-major order.
void check_to_host_row_major() {
  for (const Extents& extents : shapes()) {
    const auto drv = make_dyn_rank_view<std::uint32_t, Kokkos::LayoutLeft>(extents);
    kdt::Generator g(3);
    kdt::random_bits_(drv, g);
    const auto host = kdt::to_host_row_major(drv);
    ASSERT_EQ(host.rank(), drv.rank());
    for (std::size_t d = 0; d < extents.size(); ++d)
      ASSERT_EQ(host.extent(d), static_cast<std::size_t>(extents[d]));
    const auto bytes = row_major_bytes(drv);
    ASSERT_EQ(bytes.size(), host.size() * sizeof(std::uint32_t));
    EXPECT_EQ(std::memcmp(bytes.data(), host.data(), bytes.size()), 0);
  }
}

// Expects `call` to throw E whose message starts with `start`, and to leave the generator
// and the tensor's bytes as they were.
template <class E, class Tensor, class F>
void expect_refused(const Tensor& t, kdt::Generator& gen, F call, const std::string& start) {
  const auto bytes = row_major_bytes(t);
  const kdt::RNGState state = gen.get_state();
  try {
    call();
    ADD_FAILURE() << "no exception, expected: " << start;
  } catch (const E& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, start.size()), start);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
  EXPECT_EQ(row_major_bytes(t), bytes) << start;
  EXPECT_EQ(gen.get_state(), state) << start;
}

void check_bad_input() {
  const auto t = make_dyn_rank_view<double, Kokkos::LayoutLeft>({3, 5});
  kdt::Generator gen(11);
  kdt::uniform_(t, gen);
  expect_refused<std::invalid_argument>(
      t, gen, [&] { kdt::uniform_(t, 2.0, 1.0, gen); },
      "KokkosDTensor::uniform_: argument 'from' = 2: must be less than to = 1");
  // Probabilities of another rank with as many elements.
  const auto flat = make_dyn_rank_view<double, Kokkos::LayoutLeft>({15});
  expect_refused<std::invalid_argument>(
      t, gen, [&] { kdt::bernoulli_(t, flat, gen); },
      "KokkosDTensor::bernoulli_: argument 'probabilities' = (a tensor of another shape or spec)");
  // A probability outside [0, 1], named by its index.
  const auto p = make_dyn_rank_view<double, Kokkos::LayoutLeft>({3, 5});
  Kokkos::deep_copy(p, 0.5);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p);
  host(1, 2) = 1.25;
  Kokkos::deep_copy(p, host);
  expect_refused<std::invalid_argument>(
      t, gen, [&] { kdt::bernoulli_(t, p, gen); },
      "KokkosDTensor::bernoulli_: argument 'probabilities' = 1.25 at index [1, 2]: must lie in "
      "[0, 1]");
  // The counter space's end.
  kdt::Generator late;
  late.set_state({11, ~std::uint64_t(0) - 31});
  expect_refused<std::overflow_error>(
      t, late, [&] { kdt::normal_(t, late); },
      "KokkosDTensor::normal_: argument 'offset' = 18446744073709551584");
}

}  // namespace

TEST(DynRankView, EveryOpAsOnTheViewLayoutRight) { check_every_op<Kokkos::LayoutRight>(); }
TEST(DynRankView, EveryOpAsOnTheViewLayoutLeft) { check_every_op<Kokkos::LayoutLeft>(); }
TEST(DynRankView, TwoTensorOpsLayoutRight) { check_two_tensor_ops<Kokkos::LayoutRight>(); }
TEST(DynRankView, TwoTensorOpsLayoutLeft) { check_two_tensor_ops<Kokkos::LayoutLeft>(); }
TEST(DynRankView, StridedSubviewAndDefaultGenerator) { check_subview_and_default_generator(); }
TEST(DynRankView, ToHostRowMajor) { check_to_host_row_major(); }
TEST(DynRankView, BadInputIsRefusedAndChangesNothing) { check_bad_input(); }
