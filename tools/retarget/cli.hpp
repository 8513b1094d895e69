// What the retarget tool's commands share: their table, argument handling, the backends it
// knows, and writing files so that a failure leaves nothing half-written.
#ifndef RETARGET_TOOLS_CLI_HPP
#define RETARGET_TOOLS_CLI_HPP

#include <filesystem>
#include <optional>
#include <ostream>
#include <retarget/backend.hpp>
#include <retarget/backend/opencv_dnn.hpp>
#include <retarget/ir/model_file.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

namespace fs = std::filesystem;

using managers = retarget::backend::manager_list<retarget::backend::onnxruntime_manager,
                                                 retarget::backend::opencv_dnn_manager,
                                                 retarget::backend::tensorrt_manager>;

// A mistake in the command line itself: exit status 2 and a pointer to --help.
struct usage_error : retarget::error {
  using retarget::error::error;
};

// A command's arguments, taken out as the command reads them; what is left is an error.
class arguments {
 public:
  explicit arguments(std::vector<std::string> items) : items_(std::move(items)) {}

  bool flag(std::string_view name) { return std::erase(items_, std::string(name)) > 0; }

  // Every "--name VALUE" and "--name=VALUE" (and "-s VALUE" for a short name), in order.
  std::vector<std::string> all(std::string_view name, std::string_view short_name = {}) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < items_.size();) {
      const std::string& a = items_[i];
      if (a == name || (!short_name.empty() && a == short_name)) {
        if (i + 1 >= items_.size()) throw usage_error("retarget: " + a + " needs a value");
        out.push_back(items_[i + 1]);
        items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(i),
                     items_.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      } else if (a.starts_with(std::string(name) + "=")) {
        out.push_back(a.substr(name.size() + 1));
        items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    return out;
  }
  std::optional<std::string> one(std::string_view name, std::string_view short_name = {}) {
    auto values = all(name, short_name);
    if (values.size() > 1) throw usage_error("retarget: " + std::string(name) + " is given twice");
    if (values.empty()) return std::nullopt;
    return values.front();
  }
  std::string required(std::string_view name, std::string_view what) {
    auto v = one(name);
    if (!v) throw usage_error("retarget: " + std::string(name) + " " + std::string(what) + " is required");
    return *v;
  }
  // The arguments that are not options; an option nobody took is an error.
  std::vector<std::string> positionals() {
    std::vector<std::string> out;
    for (const auto& a : items_) {
      if (a.size() > 1 && a.front() == '-') throw usage_error("retarget: unknown option " + a);
      out.push_back(a);
    }
    items_.clear();
    return out;
  }
  // What is left, for a backend's own param options.
  std::vector<std::string> rest() { return std::exchange(items_, {}); }

 private:
  std::vector<std::string> items_;
};

struct command {
  std::string_view name;
  std::string_view summary;  // one line, for `retarget --help`
  std::string_view help;     // usage and options, for `retarget NAME --help`
  int (*run)(arguments&, std::ostream&);
};

int inspect(arguments&, std::ostream&);
int check(arguments&, std::ostream&);
int draw(arguments&, std::ostream&);
int run(arguments&, std::ostream&);
int deploy(arguments&, std::ostream&);

extern const std::span<const command> commands;

// Writes a file under a temporary name and renames it into place.
inline void write_file(const fs::path& path, std::string_view bytes) {
  retarget::ir::detail::atomic_file file(path);
  file.write(bytes.data(), bytes.size());
  file.commit();
}

// A temporary folder removed with everything in it unless released.
class scratch_dir {
 public:
  explicit scratch_dir(const fs::path& parent, std::string_view tag) {
    static int counter = 0;
    path_ = parent / ("." + std::string(tag) + "-" + std::to_string(::getpid()) + "-" +
                      std::to_string(counter++));
    fs::create_directories(path_);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  ~scratch_dir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const noexcept { return path_; }

 private:
  fs::path path_;
};

// "0.42 s", "1.3e-07": numbers as the tool prints them.
std::string seconds(double s);
std::string scientific(double v);

}  // namespace cli

#endif  // RETARGET_TOOLS_CLI_HPP
