// Deep merge of config documents, remembering which file set each value, so that an error
// about a value can name the file to fix.
#ifndef RETARGET_CONFIG_DETAIL_MERGE_HPP
#define RETARGET_CONFIG_DETAIL_MERGE_HPP

#include <boost/json/value.hpp>
#include <filesystem>
#include <iterator>
#include <map>
#include <string>
#include <string_view>

namespace retarget::config::detail {

// JSON path → the file that set it ("onnx_config.opset_version" → configs/_base_/onnx.json).
using origin_map = std::map<std::string, std::filesystem::path>;

inline std::string child_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

// Forgets the origins below `path`: a value that replaces a whole subtree owns all of it.
inline void erase_below(origin_map& origin, const std::string& path) {
  for (auto it = origin.lower_bound(path); it != origin.end() && it->first.starts_with(path);) {
    const bool below = it->first.size() > path.size() &&
                       (it->first[path.size()] == '.' || it->first[path.size()] == '[');
    it = below ? origin.erase(it) : std::next(it);
  }
}

// Records `file` as the origin of `value` at `path` and of everything inside it.
inline void record_origins(const boost::json::value& value, const std::string& path,
                           const std::filesystem::path& file, origin_map& origin) {
  origin[path] = file;
  if (value.is_object())
    for (const auto& [key, child] : value.get_object())
      record_origins(child, child_path(path, key), file, origin);
  else if (value.is_array())
    for (std::size_t i = 0; i < value.get_array().size(); ++i)
      record_origins(value.get_array()[i], path + "[" + std::to_string(i) + "]", file, origin);
}

// Merges `top` into `base`: objects merge key by key, anything else in `top` wins whole
// (lists are replaced, not concatenated, as in MMDeploy's configs).
inline void merge_into(boost::json::object& base, const boost::json::object& top,
                       const std::filesystem::path& file, origin_map& origin,
                       const std::string& path = {}) {
  for (const auto& [key, value] : top) {
    const std::string here = child_path(path, key);
    auto* existing = base.if_contains(key);
    if (existing && existing->is_object() && value.is_object()) {
      origin[here] = file;
      merge_into(existing->get_object(), value.get_object(), file, origin, here);
      continue;
    }
    base[key] = value;
    erase_below(origin, here);
    record_origins(value, here, file, origin);
  }
}

// The file that set the value at `path` (or the nearest enclosing value that has one).
inline std::filesystem::path origin_of(const origin_map& origin, std::string path) {
  while (!path.empty()) {
    if (const auto it = origin.find(path); it != origin.end()) return it->second;
    const auto cut = path.find_last_of(".[");
    if (cut == std::string::npos) break;
    path.resize(cut);
  }
  return {};
}

}  // namespace retarget::config::detail

#endif  // RETARGET_CONFIG_DETAIL_MERGE_HPP
