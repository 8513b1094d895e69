// Config documents: a JSON file with its `_base_` files merged in, and the file behind every
// value, so that an error names the file that set the bad value.
//
// `_base_` is a path or a list of paths relative to the file. Bases merge first, in order,
// then the file itself: objects merge key by key, anything else is replaced whole.
#ifndef RETARGET_CONFIG_DOCUMENT_HPP
#define RETARGET_CONFIG_DOCUMENT_HPP

#include <algorithm>
#include <boost/json/value.hpp>
#include <filesystem>
#include <retarget/config/detail/merge.hpp>
#include <retarget/config/json_file.hpp>
#include <retarget/core/error.hpp>
#include <retarget/options/json.hpp>
#include <string>
#include <system_error>
#include <vector>

namespace retarget::config {

// A config file with its `_base_` files merged in, and the file behind every value.
class config_document {
 public:
  config_document() = default;
  config_document(boost::json::object json, std::vector<std::filesystem::path> files,
                  detail::origin_map origin)
      : json_(std::move(json)), files_(std::move(files)), origin_(std::move(origin)) {}

  const boost::json::object& json() const noexcept { return json_; }
  // The file loaded, and every file it inherits from: bases first, the file itself last.
  const std::vector<std::filesystem::path>& files() const noexcept { return files_; }
  const std::filesystem::path& file() const { return files_.back(); }

  // The file that set the value at a JSON path ("onnx_config.opset_version").
  std::filesystem::path origin_of(const std::string& path) const {
    auto found = detail::origin_of(origin_, path);
    return found.empty() ? file() : found;
  }

  // The same error, with the file that set the bad value in front.
  [[noreturn]] void fail(const options::json_error& e) const {
    throw options::json_error(e.path(), e.problem(), origin_of(e.path()).string());
  }
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    fail(options::json_error(path, problem));
  }

  // A top-level section as a described struct; an absent section gives the defaults.
  template <class T>
  T section(const std::string& key) const {
    static const boost::json::value empty = boost::json::object();
    const auto* value = json_.if_contains(key);
    try {
      return options::from_json<T>(value ? *value : empty, key);
    } catch (const options::json_error& e) {
      fail(e);
    }
  }

 private:
  boost::json::object json_;
  std::vector<std::filesystem::path> files_;
  detail::origin_map origin_;
};

namespace detail {

// Loads `file` and its bases into `out`. `chain` holds the files being loaded, to see cycles;
// `included_by` says who asked for this file ("a.json: _base_[1]"), for errors.
inline void load_into(const std::filesystem::path& file, const std::string& included_by,
                      std::vector<std::filesystem::path>& chain, boost::json::object& out,
                      origin_map& origin, std::vector<std::filesystem::path>& files) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (!std::filesystem::is_regular_file(status))
    throw error(
        "retarget: " + (included_by.empty() ? std::string("config file ") : included_by + ": ") +
        file.string() +
        (!std::filesystem::exists(status)        ? " does not exist"
         : std::filesystem::is_directory(status) ? " is a folder, not a file"
                                                 : " is not a regular file"));
  const auto identity = std::filesystem::weakly_canonical(file);
  if (std::find(chain.begin(), chain.end(), identity) != chain.end()) {
    std::string cycle;
    for (auto it = std::find(chain.begin(), chain.end(), identity); it != chain.end(); ++it)
      cycle += it->filename().string() + " → ";
    throw error("retarget: " + included_by + ": " + file.string() +
                " is already being loaded: the bases form a cycle (" + cycle +
                file.filename().string() + ")");
  }
  auto document = read_json_file(file);
  if (!document.is_object())
    throw error("retarget: " + file.string() + ": a config must be a JSON object, not " +
                std::string(options::json_kind(document)));
  auto& object = document.get_object();

  chain.push_back(identity);
  if (const auto* base = object.if_contains("_base_")) {
    std::vector<std::string> bases;
    if (base->is_string()) {
      bases.emplace_back(base->get_string());
    } else {
      try {
        bases = options::from_json<std::vector<std::string>>(*base, "_base_");
      } catch (const options::json_error&) {
        throw options::json_error(
            "_base_",
            "must be a path or a list of paths, not " + std::string(options::json_kind(*base)),
            file.string());
      }
    }
    for (std::size_t i = 0; i < bases.size(); ++i)
      load_into((file.parent_path() / bases[i]).lexically_normal(),
                file.string() + ": _base_[" + std::to_string(i) + "]", chain, out, origin, files);
    object.erase("_base_");
  }
  chain.pop_back();
  merge_into(out, object, file, origin);
  files.push_back(file);
}

}  // namespace detail

// A config file with its bases merged in. Errors: a missing file or base, a cycle of bases,
// a syntax error (with line and column), a `_base_` that is not a path or a list of paths.
inline config_document load_config(const std::filesystem::path& file) {
  boost::json::object json;
  detail::origin_map origin;
  std::vector<std::filesystem::path> chain, files;
  detail::load_into(file.lexically_normal(), {}, chain, json, origin, files);
  return config_document(std::move(json), std::move(files), std::move(origin));
}

}  // namespace retarget::config

#endif  // RETARGET_CONFIG_DOCUMENT_HPP
