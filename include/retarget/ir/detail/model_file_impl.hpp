// The definitions of ir/model_file.hpp: inline header-only, compiled once into
// retarget::compiled otherwise, so that only that library includes protobuf's stream and
// wire-format headers.
#ifndef RETARGET_IR_DETAIL_MODEL_FILE_IMPL_HPP
#define RETARGET_IR_DETAIL_MODEL_FILE_IMPL_HPP

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/detail/file_sink.hpp>
#include <retarget/ir/detail/mapped_file.hpp>
#include <retarget/ir/detail/proto_file.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::ir {

namespace detail {
// Weights of this many bytes or more that stay in the model file are written straight from
// their strings rather than copied through protobuf's buffer first.
inline constexpr std::size_t splice_bytes = std::size_t{1} << 16;

// External tensors of this many bytes or more are mapped by load(), not read. Smaller ones
// (shapes, axes, scales) are read into the model: ONNX's shape inference reads such constants
// and cannot read bytes held anywhere but in the proto.
inline constexpr std::size_t map_bytes = std::size_t{1} << 16;

// Bytes a model file writes from where they are (a weight's string, a shared or mapped tensor).
using byte_span = std::span<const std::byte>;
inline byte_span bytes_of(const std::string& s) {
  return std::as_bytes(std::span(s.data(), s.size()));
}
}  // namespace detail

namespace detail {

// The fields of a message numbered from lo up to hi (excluded), moved (not copied) into a
// message of their own while it lives: deterministic serialization writes fields in number
// order and unknown fields last, so a message's bytes are its parts' bytes one after another.
// The part that reaches the end takes the unknown fields too.
class field_range {
 public:
  field_range(google::protobuf::Message& m, int lo, int hi) : message_(m), to_end_(hi == INT_MAX) {
    const auto* reflection = m.GetReflection();
    std::vector<const google::protobuf::FieldDescriptor*> all;
    reflection->ListFields(m, &all);
    for (const auto* f : all)
      if (f->number() >= lo && f->number() < hi) fields_.push_back(f);
    part_.reset(m.New());
    swap();
  }
  field_range(const field_range&) = delete;
  field_range& operator=(const field_range&) = delete;
  ~field_range() { swap(); }
  std::size_t size() const { return part_->ByteSizeLong(); }
  void write(google::protobuf::io::CodedOutputStream& out) const {
    part_->SerializeWithCachedSizes(&out);
  }

 private:
  void swap() {
    const auto* reflection = message_.GetReflection();
    if (!fields_.empty()) reflection->SwapFields(&message_, part_.get(), fields_);
    if (to_end_)
      reflection->MutableUnknownFields(&message_)->Swap(
          reflection->MutableUnknownFields(part_.get()));
  }

  google::protobuf::Message& message_;
  bool to_end_;
  std::vector<const google::protobuf::FieldDescriptor*> fields_;
  std::unique_ptr<google::protobuf::Message> part_;
};

using google::protobuf::internal::WireFormatLite;

// The bytes of a length-delimited field (an embedded message, bytes): tag, length, payload.
// The length's size is counted in 64 bits (WireFormatLite::LengthDelimitedSize truncates past
// 4 GiB), so an oversized model is measured right and refused below.
inline std::size_t length_delimited_size(int field, std::size_t payload) {
  return WireFormatLite::TagSize(field, WireFormatLite::TYPE_BYTES) +
         google::protobuf::io::CodedOutputStream::VarintSize64(payload) + payload;
}

// Writes the model as the whole proto would serialize, the initializers listed in `spliced`
// (by index) taking their raw data from those bytes, written straight from them: the file is
// identical to that of a proto holding copies of the data, and no copy is made.
inline void serialize(onnx::ModelProto& proto, const std::vector<std::optional<byte_span>>& spliced,
                      atomic_file& out, const std::filesystem::path& path) {
  constexpr int graph_field = onnx::ModelProto::kGraphFieldNumber;
  constexpr int initializer_field = onnx::GraphProto::kInitializerFieldNumber;
  constexpr int raw_data_field = onnx::TensorProto::kRawDataFieldNumber;
  auto& graph = *proto.mutable_graph();
  auto& initializers = *graph.mutable_initializer();
  std::size_t graph_size = 0, model_size = 0;
  std::vector<std::size_t> tensor_sizes;
  std::optional<field_range> model_lo, model_hi, graph_lo, graph_hi;
  std::vector<std::pair<std::unique_ptr<field_range>, std::unique_ptr<field_range>>> tensor_parts;
  const bool splice =
      std::any_of(spliced.begin(), spliced.end(), [](const auto& p) { return p.has_value(); });
  if (splice) {
    model_lo.emplace(proto, 0, graph_field);
    model_hi.emplace(proto, graph_field + 1, INT_MAX);
    graph_lo.emplace(graph, 0, initializer_field);
    graph_hi.emplace(graph, initializer_field + 1, INT_MAX);
    graph_size = graph_lo->size() + graph_hi->size();
    for (int i = 0; i < initializers.size(); ++i) {
      auto& t = initializers[i];
      std::size_t size;
      if (const auto& bytes = spliced[static_cast<std::size_t>(i)]) {
        tensor_parts.emplace_back(std::make_unique<field_range>(t, 0, raw_data_field),
                                  std::make_unique<field_range>(t, raw_data_field + 1, INT_MAX));
        size = tensor_parts.back().first->size() +
               length_delimited_size(raw_data_field, bytes->size()) +
               tensor_parts.back().second->size();
      } else {
        tensor_parts.emplace_back();
        size = t.ByteSizeLong();
      }
      tensor_sizes.push_back(size);
      graph_size += length_delimited_size(initializer_field, size);
    }
    model_size =
        model_lo->size() + length_delimited_size(graph_field, graph_size) + model_hi->size();
  } else {
    model_size = proto.ByteSizeLong();
  }
  if (model_size >= (std::size_t{1} << 31))
    throw error("retarget: " + path.string() +
                ": the model is 2 GiB or more even with its weights external");

  file_sink sink(out);
  {
    google::protobuf::io::CopyingOutputStreamAdaptor stream(&sink, 1 << 20);
    {
      google::protobuf::io::CodedOutputStream coded(&stream);
      coded.SetSerializationDeterministic(true);
      if (!splice) {
        proto.SerializeWithCachedSizes(&coded);
      } else {
        const auto tag = [&](int field, std::size_t length) {
          coded.WriteTag(WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
          coded.WriteVarint64(length);
        };
        model_lo->write(coded);
        tag(graph_field, graph_size);
        graph_lo->write(coded);
        for (int i = 0; i < initializers.size(); ++i) {
          const auto k = static_cast<std::size_t>(i);
          tag(initializer_field, tensor_sizes[k]);
          if (const auto& bytes = spliced[k]) {
            tensor_parts[k].first->write(coded);
            tag(raw_data_field, bytes->size());
            // What is buffered goes out first; the bytes then go to the file directly.
            coded.Trim();
            stream.Flush();
            if (sink.failure) break;
            out.write(bytes->data(), bytes->size());
            tensor_parts[k].second->write(coded);
          } else {
            initializers[i].SerializeWithCachedSizes(&coded);
          }
        }
        graph_hi->write(coded);
        model_hi->write(coded);
      }
    }
    stream.Flush();
  }
  if (sink.failure) std::rethrow_exception(sink.failure);
}

// Gives the tensors back their state before the save, however the save ends: raw data taken
// out for the external file is swapped back in.
struct raw_data_lender {
  std::vector<std::pair<onnx::TensorProto*, std::string>> lent;
  ~raw_data_lender() {
    for (auto& [t, data] : lent) {
      t->clear_external_data();
      t->clear_data_location();
      if (data.empty())
        t->clear_raw_data();  // a shared tensor's entry, which had none
      else
        t->mutable_raw_data()->swap(data);
    }
  }
};

}  // namespace detail

RETARGET_COMPILED_DECL void save(model& m, const std::filesystem::path& path,
                                 const save_options& options) {
  auto& proto = m.proto_without_shared_bytes();
  auto& initializers = *proto.mutable_graph()->mutable_initializer();
  // A shared tensor's bytes, held by it or mapped from the file this save may replace: the
  // new file is written beside it and renamed over it, so a mapping keeps the old bytes.
  std::vector<std::optional<detail::byte_span>> shared(
      static_cast<std::size_t>(initializers.size()));
  std::vector<const tensor*> shared_tensor(shared.size(), nullptr);
  std::size_t shared_bytes = 0;
  for (const auto& s : m.shared_initializers()) {
    if (s.index < 0 || s.index >= initializers.size() || !initializers[s.index].raw_data().empty())
      throw error("retarget: " + path.string() + ": shared initializer " + std::to_string(s.index) +
                  " is no longer in the model");
    shared[static_cast<std::size_t>(s.index)] = s.data->raw_bytes();
    shared_tensor[static_cast<std::size_t>(s.index)] = s.data.get();
    shared_bytes += s.data->raw_bytes().size();
  }
  std::size_t threshold = options.external_data_threshold;
  if (proto.ByteSizeLong() + shared_bytes >= protobuf_limit)
    threshold = std::min<std::size_t>(threshold, 1024);

  detail::raw_data_lender lender;
  std::optional<atomic_file> data_file;
  std::string location = options.external_data_file;
  if (location.empty()) location = path.filename().string() + ".data";
  if (std::filesystem::path(location).has_parent_path() || location == "." || location == "..")
    throw error("retarget: external data file '" + location + "' must be a plain file name");
  // A folder in the way is found before anything is written: its rename would fail last.
  for (const auto& target : {path, path.parent_path() / location})
    if (std::filesystem::is_directory(target))
      throw error("retarget: cannot write " + target.string() + ": " + std::strerror(EISDIR));

  std::size_t offset = 0;
  for (int i = 0; i < initializers.size(); ++i) {
    auto& t = initializers[i];
    const bool from_shared = shared[static_cast<std::size_t>(i)].has_value();
    const auto bytes =
        from_shared ? *shared[static_cast<std::size_t>(i)] : detail::bytes_of(t.raw_data());
    if (bytes.empty()) continue;
    if (bytes.size() < threshold) continue;  // inline: a shared tensor's bytes are spliced in
    shared[static_cast<std::size_t>(i)].reset();
    lender.lent.emplace_back(&t, std::string());
    if (!data_file) data_file.emplace(path.parent_path() / location);
    data_file->write(bytes.data(), bytes.size());
    // Written: a mapped weight's pages go, so that a save of gigabytes does not hold them all.
    if (from_shared) shared_tensor[static_cast<std::size_t>(i)]->release_pages();
    const std::size_t length = bytes.size();
    if (!from_shared) {
      t.mutable_raw_data()->swap(lender.lent.back().second);
      t.clear_raw_data();  // absent, not empty, as ONNX writes external tensors
    }
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    const std::pair<const char*, std::string> entries[] = {{"location", location},
                                                           {"offset", std::to_string(offset)},
                                                           {"length", std::to_string(length)}};
    for (const auto& [k, v] : entries) {
      auto* e = t.add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    offset += length;
  }

  // The large weights that stay in the file go to it from their own strings: one copy fewer of
  // each, which is most of a save's time for a model of tens of megabytes.
  for (int i = 0; i < initializers.size(); ++i)
    if (auto& spliced = shared[static_cast<std::size_t>(i)];
        !spliced && initializers[i].raw_data().size() >= detail::splice_bytes)
      spliced = detail::bytes_of(initializers[i].raw_data());

  atomic_file model_file(path);
  detail::serialize(proto, shared, model_file, path);
  if (data_file) data_file->finish();
  model_file.finish();
  if (data_file) data_file->publish();
  model_file.publish();
}

namespace detail {

// Where a tensor's external data is: a file in the model's folder, with the bytes there. Paths
// that leave the folder, by "..", by an absolute path or through a symbolic link, are refused,
// and so is a file too short for the bytes; nothing is read.
struct external_span {
  std::filesystem::path file;
  std::uint64_t offset = 0, length = 0;
};

inline external_span locate_external(const onnx::TensorProto& t,
                                     const std::filesystem::path& folder,
                                     const std::filesystem::path& model_path) {
  std::string location;
  std::uint64_t offset = 0, length = 0;
  bool has_length = false;
  const auto byte_count = [&](const std::string& key, const std::string& text) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
      throw error("retarget: " + model_path.string() + ": tensor '" + t.name() +
                  "' has external data " + key + " '" + text + "', not a byte count");
    return n;
  };
  for (const auto& e : t.external_data()) {
    if (e.key() == "location")
      location = e.value();
    else if (e.key() == "offset")
      offset = byte_count("offset", e.value());
    else if (e.key() == "length")
      length = byte_count("length", e.value()), has_length = true;
  }
  const std::filesystem::path rel(location);
  const auto refuse = [&] {
    throw error("retarget: " + model_path.string() + ": tensor '" + t.name() +
                "' has external data at '" + location + "', outside the model's folder; refused");
  };
  if (location.empty() || rel.is_absolute() ||
      std::any_of(rel.begin(), rel.end(), [](const auto& part) { return part == ".."; }))
    refuse();
  const auto file = folder / rel;
  std::error_code ec;
  const auto real_folder = std::filesystem::weakly_canonical(folder.empty() ? "." : folder, ec);
  const auto real_file = std::filesystem::weakly_canonical(file, ec);
  if (!ec) {
    if (std::mismatch(real_folder.begin(), real_folder.end(), real_file.begin(), real_file.end())
            .first != real_folder.end())
      refuse();
  }
  const auto size = std::filesystem::file_size(file, ec);
  if (ec)
    throw error("retarget: " + model_path.string() + ": external data file " + file.string() +
                " of tensor '" + t.name() + "' cannot be opened");
  const auto too_short = [&] {
    throw error("retarget: " + model_path.string() + ": external data file " + file.string() +
                " is too short for tensor '" + t.name() + "'");
  };
  // Checked before anything is allocated: a corrupt length must not ask for petabytes.
  if (offset > size) too_short();
  if (!has_length) length = size - offset;
  if (length > size - offset) too_short();
  return {file, offset, length};
}

// Reads a tensor's external data into it (locate_external's checks first).
inline void load_external(onnx::TensorProto& t, const std::filesystem::path& folder,
                          const std::filesystem::path& model_path) {
  const auto span = locate_external(t, folder, model_path);
  std::ifstream in(span.file, std::ios::binary);
  std::string bytes(span.length, '\0');
  in.seekg(static_cast<std::streamoff>(span.offset));
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(span.length)))
    throw error("retarget: " + model_path.string() + ": external data file " + span.file.string() +
                " of tensor '" + t.name() + "' cannot be read");
  t.mutable_raw_data()->swap(bytes);
  t.clear_external_data();
  t.clear_data_location();
}

inline onnx::ModelProto read_model_proto(const std::filesystem::path& path) {
  onnx::ModelProto proto;
  if (!read_proto_file(path, proto, "an ONNX model"))
    throw error("retarget: " + path.string() + " is not a valid ONNX model (corrupt or truncated)");
  return proto;
}

}  // namespace detail

RETARGET_COMPILED_DECL model read_model_file(const std::filesystem::path& path) {
  return model(detail::read_model_proto(path));
}

RETARGET_COMPILED_DECL void check_external_data(const model& m, const std::filesystem::path& path) {
  for (const auto& t : m.proto().graph().initializer())
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
      (void)detail::locate_external(t, path.parent_path(), path);
}

namespace detail {

// The data files of a model being loaded, each mapped once for all the tensors in it.
class external_mappings {
 public:
  // The tensor as a shared tensor whose bytes are its span of the mapped file; the proto's
  // entry becomes its header, without the bytes.
  std::shared_ptr<const tensor> map(onnx::TensorProto& t, const external_span& span,
                                    const std::filesystem::path& model_path) {
    auto& file = files_[span.file.lexically_normal()];
    if (!file) file = mapped_file::open(span.file);
    if (!file)
      throw error("retarget: " + model_path.string() + ": external data file " +
                  span.file.string() + " of tensor '" + t.name() + "' cannot be read");
    const auto all = file->bytes();
    if (span.offset > all.size() || span.length > all.size() - span.offset)  // changed since
      throw error("retarget: " + model_path.string() + ": external data file " +
                  span.file.string() + " is too short for tensor '" + t.name() + "'");
    // The mapped tensor's proto names its bytes by the mapping's key (see ir::raw_bytes).
    onnx::TensorProto described = t;
    auto& kept = *described.mutable_external_data();
    kept.erase(
        std::remove_if(kept.begin(), kept.end(),
                       [](const auto& e) { return e.key() == "offset" || e.key() == "length"; }),
        kept.end());
    const std::pair<std::string, std::string> entries[] = {{"offset", std::to_string(span.offset)},
                                                           {"length", std::to_string(span.length)},
                                                           {mapping_key, file->key()}};
    for (const auto& [k, v] : entries) {
      auto* e = described.add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    auto mapped = std::make_shared<const tensor>(tensor::mapped(
        std::move(described),
        all.subspan(static_cast<std::size_t>(span.offset), static_cast<std::size_t>(span.length)),
        file));
    t = mapped->header();
    return mapped;
  }

 private:
  std::map<std::filesystem::path, std::shared_ptr<const mapped_file>> files_;
};

}  // namespace detail

RETARGET_COMPILED_DECL model load(const std::filesystem::path& path) {
  onnx::ModelProto proto = detail::read_model_proto(path);
  const auto folder = path.parent_path();
  auto& graph = *proto.mutable_graph();
  std::unordered_set<std::string> inputs;
  for (const auto& in : graph.input()) inputs.insert(in.name());
  detail::external_mappings mappings;
  std::vector<shared_initializer> shared;
  for (int i = 0; i < graph.initializer_size(); ++i) {
    auto& t = *graph.mutable_initializer(i);
    if (t.data_location() != onnx::TensorProto::EXTERNAL) continue;
    const auto span = detail::locate_external(t, folder, path);
    // An input's default stays whole in the graph, as share_weights leaves it.
    if (span.length < detail::map_bytes || inputs.contains(t.name()))
      detail::load_external(t, folder, path);
    else
      shared.push_back({i, mappings.map(t, span, path)});
  }
  return model(std::move(proto), std::move(shared));
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_MODEL_FILE_IMPL_HPP
