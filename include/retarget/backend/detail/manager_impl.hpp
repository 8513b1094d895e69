// The definitions of backend/manager.hpp's functions: inline header-only, compiled once into
// retarget::compiled otherwise (file copies, folders, PATH lookups: no unit needs their bodies).
#ifndef RETARGET_BACKEND_DETAIL_MANAGER_IMPL_HPP
#define RETARGET_BACKEND_DETAIL_MANAGER_IMPL_HPP

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/backend/manager.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/topology.hpp>
#include <string>
#include <string_view>
#include <system_error>

namespace retarget::backend {

RETARGET_COMPILED_DECL void make_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return;
  if (std::filesystem::exists(dir, ec))
    throw error("retarget: cannot create folder " + dir.string() + ": a file is in the way");
  std::filesystem::create_directories(dir, ec);
  if (ec) throw error("retarget: cannot create folder " + dir.string() + ": " + ec.message());
}

RETARGET_COMPILED_DECL file_list copy_model_into_place(const std::filesystem::path& onnx_file,
                                                       const std::filesystem::path& target) {
  const auto stored = ir::read_model_file(onnx_file);
  ir::check_external_data(stored, onnx_file);
  try {
    ir::check_structure(stored);
  } catch (const error& e) {
    throw error("retarget: " + onnx_file.string() + ": " + std::string(retarget::reason_of(e)));
  }
  const bool external = stored.has_external_data();
  std::error_code same;
  if (std::filesystem::equivalent(onnx_file, target, same)) return {target};
  make_folder(target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path());
  if (!external) {  // the bytes as they are
    std::ifstream in(onnx_file, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), {}};
    ir::atomic_file out(target);
    out.write(bytes.data(), bytes.size());
    out.commit();
    return {target};
  }
  auto whole = ir::load(onnx_file);
  ir::save(whole, target, {.external_data_threshold = 1024});
  const std::filesystem::path data = target.string() + ".data";
  std::error_code ec;
  return std::filesystem::exists(data, ec) ? file_list{target, data} : file_list{target};
}

RETARGET_COMPILED_DECL std::string with_model_named(std::string what, file_list files,
                                                    const std::filesystem::path& model) {
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.string().size() > b.string().size(); });
  for (const auto& f : files)
    for (auto at = what.find(f.string()); at != std::string::npos;
         at = what.find(f.string(), at + model.string().size()))
      what.replace(at, f.string().size(), model.string());
  return what;
}

RETARGET_COMPILED_DECL scratch_folder::scratch_folder(const std::filesystem::path& parent,
                                                      std::string_view tag) {
  static std::atomic<unsigned> counter{0};
  for (;;) {  // a folder a killed run of the same pid left is not reused
    path_ = parent / ("." + std::string(tag) + "-" + std::to_string(::getpid()) + "-" +
                      std::to_string(counter++));
    std::error_code ec;
    if (std::filesystem::create_directory(path_, ec)) break;
    if (ec) throw error("retarget: cannot write in " + parent.string() + ": " + ec.message());
  }
}

RETARGET_COMPILED_DECL scratch_folder::~scratch_folder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

RETARGET_COMPILED_DECL std::filesystem::path find_program(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::string_view rest(path);
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::filesystem::path candidate =
        std::filesystem::path(std::string(rest.substr(0, colon))) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return {};
}

}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_DETAIL_MANAGER_IMPL_HPP
