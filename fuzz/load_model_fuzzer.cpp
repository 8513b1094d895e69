// Fuzzes what a user does with a model file of unknown origin: load it (external data
// included), check it, infer its shapes. Every failure must be a retarget::error; anything
// else escaping, a crash, a leak or a sanitizer report is a finding.
//
// The input is the file's bytes. Seeds: every model.onnx of ONNX's backend test data.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <retarget/ir.hpp>
#include <string>

namespace {

// A folder of this process's own: a fuzzed model's external data can only name files in it.
const std::filesystem::path& folder() {
  static const std::filesystem::path dir = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "retarget-fuzz-load-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(folder(), ignored);
    });
    return std::filesystem::path(pattern);
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = folder() / "model.onnx";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    auto m = retarget::ir::load(path);
    try {
      m.check();
    } catch (const retarget::error&) {
    }
    m.infer_shapes();
  } catch (const retarget::error&) {
  }
  return 0;
}
