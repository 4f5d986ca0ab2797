#ifndef KOKKOSDTENSOR_TEST_HELPERS_HPP
#define KOKKOSDTENSOR_TEST_HELPERS_HPP

// Small helpers the MPI tests share: the world, the meshes and placements to try, and
// bit-for-bit comparisons.

#include <KokkosDTensor_Placement.hpp>

#include <cstring>
#include <mpi.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace TestHelpers {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Every way to write n as an ordered product of `ndim` factors.
inline std::vector<std::vector<int>> factorisations(int n, int ndim) {
  if (ndim == 1) return {{n}};
  std::vector<std::vector<int>> result;
  for (int first = 1; first <= n; ++first) {
    if (n % first) continue;
    for (auto rest : factorisations(n / first, ndim - 1)) {
      rest.insert(rest.begin(), first);
      result.push_back(rest);
    }
  }
  return result;
}

// Every mesh shape of `ndim` dims over all ranks of MPI_COMM_WORLD.
inline std::vector<std::vector<int>> mesh_shapes(int ndim) {
  return factorisations(world_size(), ndim);
}

// Every placement list for a mesh of `mesh_ndim` dims over a tensor of `tensor_rank` dims,
// from Replicate and Shard(0..tensor_rank-1), and Partial too when `with_partial`.
inline std::vector<std::vector<KokkosDTensor::Placement>> placement_lists(
    int mesh_ndim, int tensor_rank, bool with_partial = false) {
  std::vector<KokkosDTensor::Placement> choices = {KokkosDTensor::Replicate()};
  for (int d = 0; d < tensor_rank; ++d) choices.push_back(KokkosDTensor::Shard(d));
  if (with_partial) choices.push_back(KokkosDTensor::Partial());
  std::vector<std::vector<KokkosDTensor::Placement>> lists = {{}};
  for (int m = 0; m < mesh_ndim; ++m) {
    std::vector<std::vector<KokkosDTensor::Placement>> longer;
    for (const auto& list : lists) {
      for (const auto& choice : choices) {
        auto next = list;
        next.push_back(choice);
        longer.push_back(next);
      }
    }
    lists = longer;
  }
  return lists;
}

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0;
}

// True on every rank iff `local` is true on every rank.
inline bool all_ranks(bool local) {
  int value = local ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return value == 1;
}

// "invalid_argument: <what>", "runtime_error: <what>" or "no exception" for a call.
template <class Function>
std::string error_message(Function&& function) {
  try {
    function();
  } catch (const std::invalid_argument& e) {
    return std::string("invalid_argument: ") + e.what();
  } catch (const std::runtime_error& e) {
    return std::string("runtime_error: ") + e.what();
  }
  return "no exception";
}

}  // namespace TestHelpers

#endif
