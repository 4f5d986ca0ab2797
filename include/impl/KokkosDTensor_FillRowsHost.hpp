#ifndef KOKKOSDTENSOR_IMPL_FILLROWSHOST_HPP
#define KOKKOSDTENSOR_IMPL_FILLROWSHOST_HPP

// The host-style rows kernel: a chunk of blocks of one row per work item, with an AVX2+FMA
// version chosen at run time.

#include <cstdint>
#include <impl/KokkosDTensor_FillRows.hpp>
#include <impl/KokkosDTensor_HostSimd.hpp>
#include <impl/KokkosDTensor_HostSimdDistributions.hpp>

namespace KokkosDTensor {
namespace Impl {

constexpr int host_batch_blocks = 8;    // blocks per philox4x32_10_batch call
constexpr int host_chunk_blocks = 512;  // blocks per host work item (2 KiB of floats)

// Host style: one work item = a chunk of up to host_chunk_blocks blocks of one row.
// Two versions of the chunk loop: fill_chunk, portable C++ (philox4x32_10_batch, which the
// compiler may or may not vectorise), and, on x86-64 with GCC/Clang, fill_chunk_avx2:
// explicit AVX2 Philox over 16 blocks at a time and, for the distributions that have one,
// the AVX2 transform (KokkosDTensor_HostSimd.hpp), chosen at run time (use_avx2_fma) so
// that default-flag builds get it on CPUs that have AVX2 and FMA; on CPUs with AVX-512F/DQ,
// fill_chunk_avx512 runs the same loop with Philox 16 blocks per instruction (philox16).
// Same bits either way.
template <class T, class Dist, bool OneRow, class Index>
struct FillRowsHostFunctor : FillRowsGeometry<T, Dist, OneRow, Index> {
  static constexpr bool is_host_style = true;
  bool use_avx2_fma;
  bool use_avx512;

  // Whole blocks of a row: block * E >= row_start and block * E + E <= row_start + length.
  // Blocks [begin, end) of the chunk are handled as: bounds-checked blocks up to the first
  // whole one, whole blocks in batches, bounds-checked blocks after them.
  inline void whole_range(std::uint64_t row_start, std::uint64_t begin, std::uint64_t end,
                          std::uint64_t& whole_first, std::uint64_t& whole_last) const {
    constexpr int E = Dist::elements_per_block;
    const std::uint64_t length = static_cast<std::uint64_t>(this->row_length);
    const std::uint64_t whole_begin = (row_start + E - 1) / E;
    const std::uint64_t whole_end = (row_start + length) / E;
    whole_first = begin < whole_begin ? whole_begin : begin;
    whole_last = end < whole_end ? end : whole_end;
    if (whole_last < whole_first) whole_last = whole_first;
    if (whole_first > end) whole_first = whole_last = end;
  }

  // Blocks [begin, end) (relative to first_block) of the row at `row` / `row_start`.
  inline void fill_chunk(T* row, std::uint64_t row_start, std::uint64_t begin,
                         std::uint64_t end) const {
    constexpr int E = Dist::elements_per_block;
    constexpr int B = host_batch_blocks;
    std::uint64_t whole_first, whole_last;
    whole_range(row_start, begin, end, whole_first, whole_last);
    std::uint64_t b = begin;
    for (; b < whole_first; ++b) this->fill_block(row, row_start, b);
    for (; b + B <= whole_last; b += B) {
      std::uint32_t word[4 * B];
      philox4x32_10_batch<B>(this->key, this->first_block + b, word);
      fill_whole_blocks<B>(row + (b * E - row_start), word);
    }
    for (; b < end; ++b) this->fill_block(row, row_start, b);
  }

  // N whole blocks at dst from their words (stream order), with Dist's scalar transform.
  template <int N>
  inline void fill_whole_blocks(T* dst, const std::uint32_t* word) const {
    constexpr int E = Dist::elements_per_block;
    for (int l = 0; l < N; ++l) {
      PhiloxBlock block;
      for (int j = 0; j < 4; ++j) block.word[j] = word[4 * l + j];
      T values[E] = {};
      if (Dist::reads_input)
        for (int e = 0; e < E; ++e) values[e] = dst[l * E + e];
      this->dist(block, values);
      for (int e = 0; e < E; ++e) dst[l * E + e] = values[e];
    }
  }

#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
  // 8 whole blocks at dst from their words in AVX2 registers.
  __attribute__((target("avx2,fma"), always_inline)) inline void fill_8_avx2(
      T* dst, const host_avx2::Words8& words) const {
    if constexpr (HostAvx2Transform<Dist>::available) {
      HostAvx2Transform<Dist>::apply(this->dist, words, dst);
    } else {
      fill_8_scalar_avx2(dst, words);
    }
  }

  // Dist's scalar transform on 8 whole blocks, every call inlined (flatten) into this
  // AVX2+FMA function, so that portable_fma is vfmadd and not a call to libm's fma (which
  // it is in fill_whole_blocks, compiled for the baseline ISA): same operations, same bits.
  __attribute__((target("avx2,fma"), flatten)) void fill_8_scalar_avx2(
      T* dst, const host_avx2::Words8& words) const {
    alignas(32) std::uint32_t word[32];
    host_avx2::store_stream_order(words.word, word);
    fill_whole_blocks<8>(dst, word);
  }

  // fill_chunk with the whole blocks through AVX2, 16 and then 8 at a time.
  __attribute__((target("avx2,fma"))) void fill_chunk_avx2(T* row, std::uint64_t row_start,
                                                           std::uint64_t begin,
                                                           std::uint64_t end) const {
    constexpr int E = Dist::elements_per_block;
    std::uint64_t whole_first, whole_last;
    whole_range(row_start, begin, end, whole_first, whole_last);
    std::uint64_t b = begin;
    for (; b < whole_first; ++b) this->fill_block(row, row_start, b);
    for (; b + 16 <= whole_last; b += 16) {
      host_avx2::Words8 words[2];
      host_avx2::philox8<2>(this->key, this->first_block + b, words);
      T* dst = row + (b * E - row_start);
      fill_8_avx2(dst, words[0]);
      fill_8_avx2(dst + 8 * E, words[1]);
    }
    for (; b + 8 <= whole_last; b += 8) {
      host_avx2::Words8 words[1];
      host_avx2::philox8<1>(this->key, this->first_block + b, words);
      fill_8_avx2(row + (b * E - row_start), words[0]);
    }
    for (; b < end; ++b) this->fill_block(row, row_start, b);
  }

  // The same with groups of 32 whole blocks from philox16 (AVX-512), transformed in 16
  // lanes where Dist has a HostAvx512Transform; the blocks before and after them (partial
  // ones, fewer than 32 whole ones) through fill_chunk_avx2.
  __attribute__((target(KOKKOSDTENSOR_IMPL_AVX512_ISA))) void fill_chunk_avx512(
      T* row, std::uint64_t row_start, std::uint64_t begin, std::uint64_t end) const {
    constexpr int E = Dist::elements_per_block;
    std::uint64_t b, whole_last;
    whole_range(row_start, begin, end, b, whole_last);
    fill_chunk_avx2(row, row_start, begin, b);
    for (; b + 32 <= whole_last; b += 32) {
      if constexpr (HostAvx512Transform<Dist>::available) {
        host_avx2::Words16 words[2];
        host_avx2::philox16<2>(this->key, this->first_block + b, words);
        for (int g = 0; g < 2; ++g)
          HostAvx512Transform<Dist>::apply(this->dist, words[g],
                                           row + ((b + 16 * g) * E - row_start));
      } else {
        host_avx2::Words8 words[4];
        host_avx2::philox16<2>(this->key, this->first_block + b, words);
        for (int g = 0; g < 4; ++g) fill_8_avx2(row + ((b + 8 * g) * E - row_start), words[g]);
      }
    }
    fill_chunk_avx2(row, row_start, b, end);
  }
#endif

  // The chunk of work item `item`: its row's memory and L, and its blocks [begin, end).
  KOKKOS_FORCEINLINE_FUNCTION void locate_chunk(const Index item, T*& row, std::uint64_t& row_start,
                                                std::uint64_t& begin, std::uint64_t& end) const {
    constexpr int E = Dist::elements_per_block;
    const Index chunk = this->locate_item(item, row, row_start);
    const std::uint64_t row_first_block = row_start / E;
    begin = row_first_block + static_cast<std::uint64_t>(chunk) * host_chunk_blocks;
    end = begin + host_chunk_blocks;
    const std::uint64_t row_end_block = row_first_block + this->blocks_per_row;
    if (end > row_end_block) end = row_end_block;
  }

  // Blocks [begin, end) of the row at `row` / `row_start` by the fastest chunk loop the CPU
  // runs (also the columns kernel's, into its buffer).
  void fill_blocks(T* row, std::uint64_t row_start, std::uint64_t begin, std::uint64_t end) const {
#if KOKKOSDTENSOR_IMPL_HOST_AVX2_DISPATCH
    if (use_avx512) {
      fill_chunk_avx512(row, row_start, begin, end);
      return;
    }
    if (use_avx2_fma) {
      fill_chunk_avx2(row, row_start, begin, end);
      return;
    }
#endif
    fill_chunk(row, row_start, begin, end);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Index item) const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    (void)item;  // host execution spaces only
#else
    T* row;
    std::uint64_t row_start, begin, end;
    locate_chunk(item, row, row_start, begin, end);
    fill_blocks(row, row_start, begin, end);
#endif
  }
};

}  // namespace Impl
}  // namespace KokkosDTensor

#endif
