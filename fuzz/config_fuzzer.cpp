// Fuzzes deploy configs: JSON with comments, `_base_` chains between several files, the typed
// sections, each backend's param, and what an onnx_config means for an export. Every refusal
// must be a retarget::error; anything else escaping, a crash, a hang, a leak or a sanitizer
// report is a finding.
//
// The input is up to four files, separated by a line `@@`: the first is 0.json, the one
// loaded, the others 1.json to 3.json beside it, for `_base_` to name. The seeds
// (fuzz/seeds/config) are the shipped configs/ rewritten that way, and chains, cycles and
// diamonds between the four files.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <retarget/backends/onnxruntime.hpp>
#include <retarget/backends/tensorrt.hpp>
#include <retarget/config.hpp>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::config;
namespace rb = retarget::backend;

constexpr std::size_t max_files = 4;

// One folder per process, in memory where there is /dev/shm: runs write their files there.
// It goes when the process exits (libFuzzer ends with exit(), which runs this destructor).
struct scratch_folder {
  fs::path path;
  scratch_folder() {
    const fs::path root = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    path = root / ("retarget-config-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(path);
  }
  ~scratch_folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const fs::path& folder() {
  static const scratch_folder dir;
  return dir.path;
}

std::vector<std::string_view> split_files(std::string_view text) {
  std::vector<std::string_view> parts;
  constexpr std::string_view separator = "\n@@\n";
  while (parts.size() + 1 < max_files) {
    const auto at = text.find(separator);
    if (at == std::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + separator.size());
  }
  parts.push_back(text);
  return parts;
}

template <class Manager>
void try_param(const rc::deploy_config& cfg) {
  try {
    (void)cfg.backend_param<Manager>();
  } catch (const retarget::error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // `_base_` may name any path; keep the fuzzer away from the files of the kernel and devices
  // (reading /proc/kcore as root never ends). A path spelled with \u escapes could still get
  // there, which mutations are unlikely to build.
  for (std::string_view forbidden : {"/proc", "/sys", "/dev", "\\u"})
    if (text.find(forbidden) != std::string_view::npos) return -1;  // not added to the corpus

  const auto parts = split_files(text);
  for (std::size_t i = 0; i < max_files; ++i) {
    const auto file = folder() / (std::to_string(i) + ".json");
    if (i < parts.size()) {
      std::ofstream(file, std::ios::binary | std::ios::trunc)
          .write(parts[i].data(), static_cast<std::streamsize>(parts[i].size()));
    } else {
      std::error_code ec;
      fs::remove(file, ec);
    }
  }

  try {
    const auto cfg = rc::load_deploy_config(folder() / "0.json");
    try_param<retarget::backends::onnxruntime_manager>(cfg);
    try_param<retarget::backends::tensorrt_manager>(cfg);
    (void)rc::export_options_for(cfg);
    for (std::size_t count : {1, 2}) {
      try {
        (void)rc::input_spec_for(cfg, 0, count, retarget::ir::dtype::f32, {1, 3, 8, 8});
      } catch (const retarget::error&) {
      }
    }
  } catch (const retarget::error&) {
  }
  return 0;
}
