// kdt-rand: a sharded tensor from the command line. Builds a device mesh over
// MPI_COMM_WORLD, prints where each rank's shard lies, fills the tensor with a
// distribution and writes the global tensor as a row-major .npy file.
//
//   mpiexec -n 4 kdt-rand --mesh 2x2 --placements S0,R --shape 7,13 --print-shards
//
// Options:
//   --mesh AxB[xC...]   mesh shape; the product must equal the number of ranks (default: 1-D, all
//   ranks)
//   --placements LIST   one of S<dim>, R, P per mesh dim, e.g. S0,R (default: R on every mesh dim)
//   --shape A,B,...     global tensor shape, 1 to 4 dims (required)
//   --layout right|left layout of the local Views (default right)
//   --dtype f32|f64|f16|bf16|u32|i64   element type (default f32). f16 and bf16 (SPEC section
//                       2, "Reduced precision"): each element is the f32 element of the same op
//                       rounded to nearest-even (uniform: a rounded `to` becomes `from`); where
//                       Kokkos' half_t / bhalf_t are 16-bit (GPU builds) the op runs on them,
//                       elsewhere on f32 and kdt-rand rounds, with the library's rounding: the
//                       same values. .npy: f16 as <f2; bf16 as <f4 holding the exact bf16 values
//                       (NumPy has no bfloat16).
//   --print-shards      each rank prints `shard rank=R coord=a,b local_shape=x,y global_offset=u,v`
//   --dist NAME         uniform|normal|bernoulli|bits|randint|exponential|log_normal|geometric|
//                       trunc_normal from the DTensor RNG tracker, or "arange" (each element's
//                       global row-major index, no randomness). bits are written as <u4,
//                       randint as <i8, the others in the --dtype float type.
//   --help              prints these options
//   --params a,b        parameters of the distribution
//   --seed S            seed of the DTensor RNG tracker (default 0)
//   --offset W          starting offset of the stream, in 32-bit words (default 0)
//   --repeat K          run the op K times (default 1)
//   --out FILE.npy      rank 0 writes the global tensor (needs --dist)
//   --raw-out FILE      with --dist bits: after each op rank 0 appends the gathered global
//                       tensor to FILE ("-": stdout) as raw uint32 words in host byte order
//                       (row-major), so the file is the stream from (seed, offset) drawn
//                       through the sharded tensor (for shapes of a multiple of 4 elements);
//                       --repeat 0 (or none) streams until the reader closes FILE. For a reader
//                       that stops early (dieharder) use a named pipe, not stdout: mpiexec
//                       forwards stdout and aborts the job when the pipe closes. Byte count and
//                       final state go to stderr.
// Bad arguments and library errors: a one-line message `kdt-rand: <problem>` on rank 0,
// exit status 2 (every rank finds the same problem, so no rank waits for another).

#include <KokkosDTensor.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kdt = KokkosDTensor;

namespace {

// A problem with the command line; reported as one line, no stack dump.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::vector<int> mesh_shape;  // empty: 1-D over all ranks
  std::string mesh_text;
  std::vector<kdt::Placement> placements;
  bool placements_given = false;
  std::vector<std::int64_t> shape;
  bool shape_given = false;
  std::string layout = "right";
  std::string dtype = "f32";
  bool print_shards = false;
  std::string dist;  // empty: no fill
  std::vector<double> params;
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;
  int repeat = 1;
  bool repeat_given = false;
  std::string out;
  std::string raw_out;  // empty: no raw output
  bool help = false;
};

// The options part of the comment at the top of this file.
const char* const help_text = R"(kdt-rand: a sharded tensor from the command line.
  mpiexec -n 4 kdt-rand --mesh 2x2 --placements S0,R --shape 7,13 --dist normal --out t.npy
Options:
  --mesh AxB[xC...]   mesh shape; the product must equal the number of ranks (default: 1-D)
  --placements LIST   one of S<dim>, R, P per mesh dim, e.g. S0,R (default: R on every dim)
  --shape A,B,...     global tensor shape, 1 to 4 dims (required)
  --layout right|left layout of the local Views (default right)
  --dtype T           f32|f64|f16|bf16|u32|i64 (default f32). f16, bf16: each element is the
                      f32 element of the same op rounded to nearest-even (uniform: a rounded
                      `to` becomes `from`), on Kokkos' half_t / bhalf_t where they are 16-bit,
                      else rounded by kdt-rand (the same values). .npy: f16 as <f2, bf16 as
                      <f4 holding the exact bf16 values (NumPy has no bfloat16).
  --print-shards      each rank prints where its shard lies
  --dist NAME         uniform|normal|bernoulli|bits|randint|exponential|log_normal|geometric|
                      trunc_normal|arange (bits: <u4, randint: <i8, the others: --dtype)
  --params a,b        parameters of the distribution
  --seed S, --offset W, --repeat K   state of the DTensor RNG tracker, ops to run
  --out FILE.npy      rank 0 writes the global tensor
  --raw-out FILE      with --dist bits: the gathered words of every op, raw
)";

// ---- command-line parsing ---------------------------------------------------------------

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::uint64_t parse_unsigned(const std::string& text, const std::string& option,
                             std::uint64_t max_value) {
  bool digits = !text.empty() && text.size() <= 20;
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  errno = 0;
  unsigned long long value = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || value > max_value)
    throw UsageError(option + ": \"" + text + "\" is not an integer in [0, " +
                     std::to_string(max_value) + "]");
  return value;
}

double parse_double(const std::string& text, const std::string& option) {
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE)
    throw UsageError(option + ": \"" + text + "\" is not a number");
  return value;
}

std::vector<int> parse_mesh(const std::string& text) {
  std::vector<int> shape;
  for (const auto& part : split(text, 'x'))
    shape.push_back(static_cast<int>(parse_unsigned(part, "--mesh " + text, 1 << 20)));
  for (int extent : shape)
    if (extent < 1) throw UsageError("--mesh " + text + ": every extent must be at least 1");
  return shape;
}

Options parse_command_line(const std::vector<std::string>& args) {
  Options options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& option = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(option + ": missing value");
      return args[++i];
    };
    if (option == "--mesh") {
      options.mesh_text = value();
      options.mesh_shape = parse_mesh(options.mesh_text);
    } else if (option == "--placements") {
      try {
        options.placements = kdt::parse_placements(value());
      } catch (const std::invalid_argument& e) {
        throw UsageError("--placements: " + std::string(e.what()));
      }
      options.placements_given = true;
    } else if (option == "--shape") {
      const std::string& text = value();
      options.shape.clear();
      for (const auto& part : split(text, ',')) {
        if (!part.empty() && part[0] == '-')
          throw UsageError("--shape " + text + ": extent \"" + part +
                           "\" is negative (extents are integers >= 0)");
        options.shape.push_back(static_cast<std::int64_t>(
            parse_unsigned(part, "--shape " + text, std::uint64_t(1) << 40)));
      }
      if (options.shape.size() > 4)
        throw UsageError("--shape " + text + ": 1 to 4 dims are supported");
      options.shape_given = true;
    } else if (option == "--layout") {
      options.layout = value();
      if (options.layout != "right" && options.layout != "left")
        throw UsageError("--layout: \"" + options.layout + "\" is not right or left");
    } else if (option == "--dtype") {
      options.dtype = value();
      if (options.dtype != "f32" && options.dtype != "f64" && options.dtype != "f16" &&
          options.dtype != "bf16" && options.dtype != "u32" && options.dtype != "i64")
        throw UsageError("--dtype: \"" + options.dtype +
                         "\" is not f32, f64, f16, bf16, u32 or i64");
    } else if (option == "--print-shards") {
      options.print_shards = true;
    } else if (option == "--dist") {
      options.dist = value();
    } else if (option == "--params") {
      options.params.clear();
      for (const auto& part : split(value(), ','))
        options.params.push_back(parse_double(part, "--params"));
    } else if (option == "--seed") {
      options.seed = parse_unsigned(value(), "--seed", UINT64_MAX);
    } else if (option == "--offset") {
      const std::string& text = value();
      options.offset = parse_unsigned(text, "--offset", UINT64_MAX);
      if (options.offset % 4 != 0)
        throw UsageError("--offset " + text +
                         ": must be a multiple of 4 (the offset counts 32-bit words and ops "
                         "use whole 4-word Philox blocks)");
    } else if (option == "--repeat") {
      options.repeat = static_cast<int>(parse_unsigned(value(), "--repeat", 1 << 30));
      options.repeat_given = true;
    } else if (option == "--out") {
      options.out = value();
    } else if (option == "--raw-out") {
      options.raw_out = value();
    } else if (option == "--help") {
      options.help = true;
      return options;
    } else {
      throw UsageError("unknown option \"" + option + "\" (see the top of examples/kdt_rand.cpp)");
    }
  }
  if (!options.shape_given) throw UsageError("--shape is required, e.g. --shape 7,13");
  if (!options.out.empty() && options.dist.empty())
    throw UsageError("--out " + options.out + ": needs --dist (nothing to write)");
  if (!options.raw_out.empty()) {
    if (options.dist != "bits") throw UsageError("--raw-out: needs --dist bits (raw 32-bit words)");
    if (!options.out.empty() || (options.print_shards && options.raw_out == "-"))
      throw UsageError("--raw-out: drop --out (and --print-shards when writing to stdout)");
    if (!options.repeat_given) options.repeat = 0;
  }
  return options;
}

// ---- mesh and shards ---------------------------------------------------------------------

kdt::DeviceMesh make_mesh(Options& options, int world_size) {
  if (options.mesh_shape.empty()) {
    options.mesh_shape = {world_size};
    options.mesh_text = std::to_string(world_size);
  }
  long long ranks = 1;
  for (int extent : options.mesh_shape) ranks *= extent;
  if (ranks != world_size)
    throw UsageError("--mesh " + options.mesh_text + " has " + std::to_string(ranks) +
                     " ranks but the program runs on " + std::to_string(world_size) +
                     " (mpiexec -n)");
  return kdt::init_device_mesh(options.mesh_shape);
}

kdt::DTensorSpec make_spec(Options& options, const kdt::DeviceMesh& mesh) {
  if (!options.placements_given) options.placements.assign(mesh.ndim(), kdt::Replicate());
  try {
    return kdt::DTensorSpec(mesh, options.placements, options.shape);
  } catch (const std::invalid_argument& e) {
    std::string shape;
    for (std::size_t i = 0; i < options.shape.size(); ++i)
      shape += (i ? "," : "") + std::to_string(options.shape[i]);
    throw UsageError("--placements " + kdt::to_string(options.placements) + " with --shape " +
                     shape + ": " + e.what());
  }
}

template <class T>
std::string comma_list(const std::vector<T>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i)
    text += (i ? "," : "") + std::to_string(values[i]);
  return text;
}

// Rank 0 prints one line per rank, in rank order.
void print_shards(const kdt::DTensorSpec& spec, int world_rank, int world_size) {
  std::string line = "shard rank=" + std::to_string(world_rank) +
                     " coord=" + comma_list(*spec.mesh().coordinate()) +
                     " local_shape=" + comma_list(spec.local_shape()) +
                     " global_offset=" + comma_list(spec.global_offset()) + "\n";
  int length = static_cast<int>(line.size());
  std::vector<int> lengths(world_size), displacements(world_size, 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < world_size; ++r) {
    displacements[r] = total;
    total += lengths[r];
  }
  std::vector<char> all(world_rank == 0 ? total : 0);
  MPI_Gatherv(line.data(), length, MPI_CHAR, all.data(), lengths.data(), displacements.data(),
              MPI_CHAR, 0, MPI_COMM_WORLD);
  if (world_rank == 0) {
    std::fwrite(all.data(), 1, all.size(), stdout);
    std::fflush(stdout);
  }
}

// ---- .npy writer (format version 1.0, row-major) -------------------------------------------

template <class T>
const char* npy_descr();
template <>
const char* npy_descr<float>() {
  return "<f4";
}
template <>
const char* npy_descr<double>() {
  return "<f8";
}
template <>
const char* npy_descr<std::uint32_t>() {
  return "<u4";
}
template <>
const char* npy_descr<std::int64_t>() {
  return "<i8";
}

void write_npy(const std::string& path, const char* descr, const std::vector<std::int64_t>& shape,
               const void* data, std::size_t bytes) {
  const std::uint16_t one = 1;
  if (*reinterpret_cast<const unsigned char*>(&one) != 1)
    throw std::runtime_error("--out: the .npy writer supports little-endian hosts only");
  std::string shape_text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    shape_text += (i ? ", " : "") + std::to_string(shape[i]);
  shape_text += shape.size() == 1 ? ",)" : ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape_text + ", }";
  const std::size_t preamble = 10;  // magic (6) + version (2) + header length (2)
  std::size_t padded = header.size() + 1;
  padded += (64 - (preamble + padded) % 64) % 64;
  header.append(padded - 1 - header.size(), ' ');
  header += '\n';
  std::ofstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("--out " + path + ": cannot open for writing");
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  file.write(reinterpret_cast<const char*>(magic), 8);
  const unsigned char length[2] = {static_cast<unsigned char>(header.size() & 0xff),
                                   static_cast<unsigned char>(header.size() >> 8)};
  file.write(reinterpret_cast<const char*>(length), 2);
  file << header;
  file.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  if (!file) throw std::runtime_error("--out " + path + ": write failed");
}

bool is_16bit_dtype(const std::string& dtype) { return dtype == "f16" || dtype == "bf16"; }

// The f16 or bf16 bits of an element: its own where the op ran on a 16-bit type; from f32,
// those of the element the library writes: rounded to nearest-even, uniform's rounded `to`
// becoming `from` (KokkosDTensor_Distributions.hpp, RoundedDistribution).
template <class T>
std::uint16_t bits_16(const T& value, const Options& options) {
  if constexpr (kdt::Impl::is_reduced_float<T>()) {
    return kdt::Impl::reduced_to_bits(value);
  } else {
    const bool bf16 = options.dtype == "bf16";
    const auto round = [bf16](double x) {
      const float f = static_cast<float>(x);
      return bf16 ? kdt::Impl::float_to_bf16_bits(f) : kdt::Impl::float_to_f16_bits(f);
    };
    const std::uint16_t bits = round(static_cast<double>(value));
    if (options.dist != "uniform") return bits;
    const double from = options.params.size() > 0 ? options.params[0] : 0.0;
    const double to = options.params.size() > 1 ? options.params[1] : 1.0;
    return bits == round(to) ? round(from) : bits;
  }
}

// Writes any View (any layout, any memory space) in row-major order, as options.dtype.
template <class ViewType>
void write_view_npy(const std::string& path, const ViewType& view, const Options& options) {
  using T = typename ViewType::non_const_value_type;
  auto row_major = kdt::to_host_row_major(view);
  const auto shape = kdt::Impl::view_extents(view);
  if (kdt::Impl::is_reduced_float<T>() || is_16bit_dtype(options.dtype)) {
    std::vector<std::uint16_t> bits(row_major.size());
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = bits_16(row_major.data()[i], options);
    if (options.dtype == "f16") return write_npy(path, "<f2", shape, bits.data(), 2 * bits.size());
    std::vector<float> values(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i)
      values[i] = kdt::Impl::bf16_bits_to_float(bits[i]);
    return write_npy(path, "<f4", shape, values.data(), 4 * values.size());
  }
  if constexpr (!kdt::Impl::is_reduced_float<T>())
    write_npy(path, npy_descr<T>(), shape, row_major.data(), row_major.size() * sizeof(T));
}

// ---- filling the tensor ---------------------------------------------------------------------

// Where the local block sits, in a form a device kernel can capture.
struct LocalBlock {
  int rank = 0;
  std::int64_t local_shape[8] = {};
  std::int64_t global_offset[8] = {};
  std::int64_t global_shape[8] = {};
};

template <class View, std::size_t... I>
KOKKOS_INLINE_FUNCTION typename View::reference_type element(const View& view,
                                                             const std::int64_t* index,
                                                             std::index_sequence<I...>) {
  return view(index[I]...);
}

// Every element gets its global row-major index (no randomness): checks the sharding and
// gather plumbing end to end.
template <class DT>
void fill_with_global_index(const DT& tensor) {
  using view_type = typename DT::view_type;
  using value_type = typename view_type::non_const_value_type;
  constexpr int rank = DT::rank;
  LocalBlock block;
  block.rank = rank;
  for (int d = 0; d < rank; ++d) {
    block.local_shape[d] = tensor.local_shape()[d];
    block.global_offset[d] = tensor.global_offset()[d];
    block.global_shape[d] = tensor.global_shape()[d];
  }
  view_type local = tensor.local();
  Kokkos::parallel_for(
      "kdt-rand::fill_with_global_index",
      Kokkos::RangePolicy<typename view_type::execution_space>(0, local.size()),
      KOKKOS_LAMBDA(const std::size_t linear_local) {
        std::int64_t index[rank];
        std::int64_t rest = static_cast<std::int64_t>(linear_local);
        for (int d = rank - 1; d >= 0; --d) {
          index[d] = rest % block.local_shape[d];
          rest /= block.local_shape[d];
        }
        std::int64_t linear_global = 0;
        for (int d = 0; d < rank; ++d)
          linear_global = linear_global * block.global_shape[d] + block.global_offset[d] + index[d];
        element(local, index, std::make_index_sequence<rank>{}) =
            static_cast<value_type>(linear_global);
      });
  Kokkos::fence();
}

// The value of parameter `index`, or `fallback` when --params gave fewer.
double param(const Options& options, std::size_t index, double fallback) {
  return index < options.params.size() ? options.params[index] : fallback;
}

double required_param(const Options& options, std::size_t index, const char* what) {
  if (index >= options.params.size())
    throw UsageError("--dist " + options.dist + " needs --params (" + what + ")");
  return options.params[index];
}

// One random op on `tensor` from the DTensor RNG tracker. The element type was chosen to
// suit the distribution (element_type_for), so each branch only compiles where it applies.
template <class DT>
void apply_distribution(const Options& options, const DT& tensor) {
  using T = typename DT::non_const_value_type;
  const std::string& d = options.dist;
  if constexpr (std::is_floating_point<T>::value || kdt::Impl::is_reduced_float<T>()) {
    if (d == "uniform") return kdt::uniform_(tensor, param(options, 0, 0), param(options, 1, 1));
    if (d == "normal") return kdt::normal_(tensor, param(options, 0, 0), param(options, 1, 1));
    if (d == "bernoulli") return kdt::bernoulli_(tensor, param(options, 0, 0.5));
    if (d == "exponential") return kdt::exponential_(tensor, param(options, 0, 1));
    if (d == "log_normal")
      return kdt::log_normal_(tensor, param(options, 0, 1), param(options, 1, 2));
    if (d == "geometric") return kdt::geometric_(tensor, required_param(options, 0, "p"));
    if (d == "trunc_normal")
      return kdt::trunc_normal_(tensor, param(options, 0, 0), param(options, 1, 1),
                                param(options, 2, -2), param(options, 3, 2));
  } else if constexpr (std::is_same<T, std::uint32_t>::value) {
    if (d == "bits") return kdt::random_bits_(tensor);
  } else if constexpr (std::is_same<T, std::int64_t>::value) {
    if (d == "randint")
      return kdt::randint_(tensor,
                           static_cast<std::int64_t>(required_param(options, 0, "low,high")),
                           static_cast<std::int64_t>(required_param(options, 1, "low,high")));
  }
  throw UsageError("--dist " + d + " does not apply to --dtype " + options.dtype);
}

// Fills `tensor` with options.dist: seeds the DTensor RNG tracker with options.seed
// (manual_seed on the tensor's mesh), moves it to options.offset, then runs the op
// options.repeat times with options.params.
template <class DT>
void run_distribution(const Options& options, DT& tensor) {
  if (options.dist == "arange") {
    fill_with_global_index(tensor);
    return;
  }
  kdt::manual_seed(options.seed, tensor.mesh());
  kdt::rng_tracker()->set_rng_state(kdt::RNGState{options.seed, options.offset});
  for (int k = 0; k < options.repeat; ++k) apply_distribution(options, tensor);
  Kokkos::fence();
}

// --raw-out: seeds like run_distribution, then per op gathers the global tensor and rank 0
// appends its words to the file, until options.repeat ops (0: until the reader closes the
// file; rank 0 tells the others with one broadcast per op, outside the random ops).
template <class DT>
void stream_raw_words(const Options& options, DT& tensor, int world_rank) {
  static_assert(std::is_same<typename DT::non_const_value_type, std::uint32_t>::value,
                "raw words are uint32");
  kdt::manual_seed(options.seed, tensor.mesh());
  kdt::rng_tracker()->set_rng_state(kdt::RNGState{options.seed, options.offset});
  std::FILE* file = nullptr;
  int opened = 1;
  if (world_rank == 0) {
    std::signal(SIGPIPE, SIG_IGN);  // a reader closing the pipe is the normal end
    file = options.raw_out == "-" ? stdout : std::fopen(options.raw_out.c_str(), "wb");
    opened = file != nullptr;
  }
  MPI_Bcast(&opened, 1, MPI_INT, 0, MPI_COMM_WORLD);  // every rank stops if rank 0 cannot write
  if (!opened)
    throw std::runtime_error("--raw-out " + options.raw_out + ": cannot open for writing");
  std::uint64_t bytes = 0;
  int keep_going = 1;
  for (long long k = 0; keep_going && (options.repeat == 0 || k < options.repeat); ++k) {
    apply_distribution(options, tensor);
    auto full = tensor.full_tensor();
    if (world_rank == 0) {
      auto words = kdt::to_host_row_major(full);
      const std::size_t count = words.size();
      const std::size_t written = std::fwrite(words.data(), sizeof(std::uint32_t), count, file);
      bytes += written * sizeof(std::uint32_t);
      if (written != count || std::fflush(file) != 0) keep_going = 0;
    }
    MPI_Bcast(&keep_going, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (world_rank == 0) {
    if (file != stdout) std::fclose(file);
    std::cerr << "kdt-rand: --raw-out wrote " << bytes << " bytes"
              << (keep_going ? "" : " (the reader closed the file)") << std::endl;
  }
}

// ---- dispatch on element type, layout and rank -----------------------------------------------

template <class T, class Layout, int Rank>
void run_tensor(const Options& options, const kdt::DTensorSpec& spec, int world_rank) {
  using DT = kdt::DTensor<typename kdt::Impl::RankDataType<T, Rank>::type, Layout>;
  DT tensor("kdt-rand", spec);
  if constexpr (std::is_same<T, std::uint32_t>::value) {
    if (!options.raw_out.empty()) return stream_raw_words(options, tensor, world_rank);
  }
  run_distribution(options, tensor);
  if (!options.out.empty()) {
    auto full = tensor.full_tensor();
    if (world_rank == 0) write_view_npy(options.out, full, options);
  }
}

template <class T, class Layout>
void run_with_layout(const Options& options, const kdt::DTensorSpec& spec, int world_rank) {
  switch (spec.tensor_rank()) {
    case 1:
      return run_tensor<T, Layout, 1>(options, spec, world_rank);
    case 2:
      return run_tensor<T, Layout, 2>(options, spec, world_rank);
    case 3:
      return run_tensor<T, Layout, 3>(options, spec, world_rank);
    case 4:
      return run_tensor<T, Layout, 4>(options, spec, world_rank);
    default:
      throw UsageError("--shape: 1 to 4 dims are supported");
  }
}

template <class T>
void run_with_type(const Options& options, const kdt::DTensorSpec& spec, int world_rank) {
  if (options.layout == "left")
    run_with_layout<T, Kokkos::LayoutLeft>(options, spec, world_rank);
  else
    run_with_layout<T, Kokkos::LayoutRight>(options, spec, world_rank);
}

// The element type the .npy file holds: bits as uint32, randint as int64, the other
// distributions in the float type --dtype names.
std::string element_type_for(const Options& options) {
  static const std::vector<std::string> float_dists = {
      "uniform", "normal", "bernoulli", "exponential", "log_normal", "geometric", "trunc_normal"};
  if (options.dist == "bits") return "u32";
  if (options.dist == "randint") return "i64";
  if (options.dist == "arange") return options.dtype;
  for (const auto& name : float_dists) {
    if (options.dist != name) continue;
    if (options.dtype != "f32" && options.dtype != "f64" && !is_16bit_dtype(options.dtype))
      throw UsageError("--dist " + name + " needs --dtype f32, f64, f16 or bf16, not " +
                       options.dtype);
    return options.dtype;
  }
  throw UsageError("--dist " + options.dist +
                   ": unknown distribution (uniform, normal, bernoulli, bits, randint, "
                   "exponential, log_normal, geometric, trunc_normal, arange)");
}

void run(Options options, int world_rank, int world_size) {
  if (options.help) {
    if (world_rank == 0) std::cout << help_text;
    return;
  }
  kdt::DeviceMesh mesh = make_mesh(options, world_size);
  kdt::DTensorSpec spec = make_spec(options, mesh);
  if (options.print_shards) print_shards(spec, world_rank, world_size);
  if (options.dist.empty()) return;
  options.dtype = element_type_for(options);
  // f16, bf16: on Kokkos' 16-bit type where it is one, else on f32 rounded when written.
  const bool on_half = options.dtype == "f16" && KOKKOSDTENSOR_HALF_T_IS_16BIT;
  const bool on_bhalf = options.dtype == "bf16" && KOKKOSDTENSOR_BHALF_T_IS_16BIT;
  if (on_half || on_bhalf) {
#if KOKKOSDTENSOR_HALF_T_IS_16BIT
    if (on_half) run_with_type<Kokkos::Experimental::half_t>(options, spec, world_rank);
#endif
#if KOKKOSDTENSOR_BHALF_T_IS_16BIT
    if (on_bhalf) run_with_type<Kokkos::Experimental::bhalf_t>(options, spec, world_rank);
#endif
  } else if (options.dtype == "f32" || is_16bit_dtype(options.dtype)) {
    run_with_type<float>(options, spec, world_rank);
  }
  if (options.dtype == "f64") run_with_type<double>(options, spec, world_rank);
  if (options.dtype == "u32") run_with_type<std::uint32_t>(options, spec, world_rank);
  if (options.dtype == "i64") run_with_type<std::int64_t>(options, spec, world_rank);
  if (world_rank == 0 && options.dist != "arange") {
    const kdt::RNGState state = kdt::rng_tracker()->get_rng_state();
    (options.raw_out.empty() ? std::cout : std::cerr)
        << "state seed=" << state.seed << " offset=" << state.offset << std::endl;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  Kokkos::initialize(argc, argv);  // removes the --kokkos-* arguments
  int status = 0;
  try {
    run(parse_command_line(std::vector<std::string>(argv + 1, argv + argc)), world_rank,
        world_size);
  } catch (const std::exception& e) {
    // Argument errors are found identically on every rank; rank 0 reports, on one line.
    std::string message = e.what();
    for (char& c : message)
      if (c == '\n' || c == '\r') c = ' ';
    if (world_rank == 0) std::cerr << "kdt-rand: " << message << std::endl;
    status = 2;
  }
  Kokkos::finalize();
  MPI_Finalize();
  return status;
}
