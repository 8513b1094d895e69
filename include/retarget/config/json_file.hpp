// JSON files as configs are written by hand: comments and trailing commas are allowed, and a
// syntax error names the file, the line and the column.
//
//   boost::json::value v = retarget::config::read_json_file("configs/srcnn.json");
//   // retarget: configs/srcnn.json:4:18: invalid JSON (syntax error)
#ifndef RETARGET_CONFIG_JSON_FILE_HPP
#define RETARGET_CONFIG_JSON_FILE_HPP

#include <algorithm>
#include <boost/json/error.hpp>
#include <boost/json/stream_parser.hpp>
#include <boost/json/value.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/core/error.hpp>
#include <string>
#include <string_view>

namespace retarget::config {

// "line:column" (both from 1) of a byte offset in a text.
inline std::string line_and_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

// Parses JSON text; `source` names it in errors ("configs/srcnn.json").
inline boost::json::value parse_json(std::string_view text, const std::string& source) {
  boost::json::parse_options options;
  options.allow_comments = true;
  options.allow_trailing_commas = true;
  boost::json::stream_parser parser({}, options);
  boost::system::error_code ec;
  // On an error, write_some stops at the offending character: its count is the position.
  const std::size_t consumed = parser.write_some(text.data(), text.size(), ec);
  if (!ec && consumed < text.size()) ec = boost::json::error::extra_data;
  if (!ec) parser.finish(ec);
  if (ec)
    throw error("retarget: " + source + ":" + line_and_column(text, consumed) + ": invalid JSON (" +
                ec.message() + ")");
  return parser.release();
}

inline boost::json::value read_json_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error("retarget: cannot read " + path.string() + ": " + std::strerror(errno));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return parse_json(text, path.string());
}

}  // namespace retarget::config

#endif  // RETARGET_CONFIG_JSON_FILE_HPP
