#ifndef KOKKOSDTENSOR_DTENSORRANDOM_HPP
#define KOKKOSDTENSOR_DTENSORRANDOM_HPP

// Random ops on DTensors: every op of KokkosDTensor_RandomOps.hpp also takes a DTensor,
// drawing from the DTensor RNG tracker (or a Generator given last). Each rank fills its
// shard from the elements' global row-major indices, so the global tensor does not depend
// on the mesh, the placements or the rank count, and an op makes no MPI call once the
// tracker exists (docs/design.md). reserve(dtensor, words_per_element[, gen]) reserves the
// same words for a user's own kernel over the shard (KokkosDTensor_ShardStream.hpp).

#include <KokkosDTensor_DTensor.hpp>
#include <KokkosDTensor_RNGTracker.hpp>
#include <KokkosDTensor_RandomOps.hpp>
#include <KokkosDTensor_ShardStream.hpp>
#include <impl/KokkosDTensor_DTensorRandomTarget.hpp>

#endif
