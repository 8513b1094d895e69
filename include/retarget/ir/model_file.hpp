// Model files: saved atomically (a temporary file renamed into place, so a failed save leaves
// the previous file as it was and no partial file), deterministically (the same model gives
// the same bytes), with large tensors in an external data file; and loaded back, large
// external tensors mapped from their file rather than read into memory.
//
//   retarget::ir::save(m, "srcnn.onnx");
//   retarget::ir::save(m, "resnet.onnx", {.external_data_threshold = 1024});
//   auto again = retarget::ir::load("resnet.onnx");
#ifndef RETARGET_IR_MODEL_FILE_HPP
#define RETARGET_IR_MODEL_FILE_HPP

#include <cstdint>
#include <filesystem>
#include <retarget/core/config.hpp>
#include <retarget/ir/model.hpp>
#include <string>

namespace retarget::ir {

struct save_options {
  // Initializers of at least this many bytes go to the external data file.
  std::size_t external_data_threshold = SIZE_MAX;
  // The external data file, relative to the model's folder; empty: "<model file>.data".
  std::string external_data_file = {};
};

// Protobuf cannot serialize a message of 2 GiB or more; past this, weights go external.
inline constexpr std::size_t protobuf_limit = (std::size_t{1} << 31) - (std::size_t{1} << 24);

// Saves the model. Its weights are lent to the file writer and given back, not copied, so
// save takes the model by reference; the model is unchanged when save returns or throws.
// Weights the model shares with their tensors (a module's parameters) go from those tensors
// to the external data file directly: saving a model costs no copy of its weights.
RETARGET_COMPILED_DECL void save(model& m, const std::filesystem::path& path,
                                 const save_options& options = {});

inline void save(model&& m, const std::filesystem::path& path, const save_options& options = {}) {
  save(m, path, options);
}

// The model as stored: external data stays where it is (its tensors name their files), so
// what only reads names, dims and sizes need not read gigabytes of weights.
RETARGET_COMPILED_DECL model read_model_file(const std::filesystem::path& path);

// Checks the external data of a model read with read_model_file as load() would, without
// reading it: each file is in the model's folder and long enough for its tensor.
RETARGET_COMPILED_DECL void check_external_data(const model& m, const std::filesystem::path& path);

// The model with its external data: tensors of 64 KiB or more are mapped from their files (the
// model shares them, see model::shared_initializers; their pages are read when touched), the
// others read into the model. A data file may be replaced (saved over) while mapped.
RETARGET_COMPILED_DECL model load(const std::filesystem::path& path);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/model_file_impl.hpp>
#endif

#endif  // RETARGET_IR_MODEL_FILE_HPP
