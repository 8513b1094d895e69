// What fired during one export: each rewrite (function, module or symbolic) that ran, for
// which backend, and how often. One log per export session, so concurrent exports never
// share one.
#ifndef RETARGET_CORE_REWRITE_LOG_HPP
#define RETARGET_CORE_REWRITE_LOG_HPP

#include <cstddef>
#include <string_view>
#include <vector>

namespace retarget {

// node: a node of an existing model, rewritten by its op type.
enum class rewrite_kind { function, module, symbolic, node };

constexpr std::string_view to_string(rewrite_kind k) noexcept {
  switch (k) {
    case rewrite_kind::function:
      return "function";
    case rewrite_kind::module:
      return "module";
    case rewrite_kind::symbolic:
      return "symbolic";
    case rewrite_kind::node:
      return "node";
  }
  return "?";
}

// All names are views of compile-time strings, so recording never allocates per call.
struct rewrite_record {
  rewrite_kind kind;
  std::string_view target;   // the function, module type or op that was rewritten
  std::string_view backend;  // the backend being exported for
  std::string_view rewrite;  // whose rewrite ran: that backend, a fallback or "default"
  std::size_t count = 0;

  friend bool operator==(const rewrite_record&, const rewrite_record&) = default;
};

class rewrite_log {
 public:
  void record(rewrite_kind kind, std::string_view target, std::string_view backend,
              std::string_view rewrite) {
    for (auto& r : records_)
      if (r.kind == kind && r.target == target && r.backend == backend && r.rewrite == rewrite) {
        ++r.count;
        return;
      }
    records_.push_back({kind, target, backend, rewrite, 1});
  }

  // In order of first firing.
  const std::vector<rewrite_record>& records() const noexcept { return records_; }
  bool empty() const noexcept { return records_.empty(); }
  void clear() noexcept { records_.clear(); }

 private:
  std::vector<rewrite_record> records_;
};

// Stands in for a log when nobody asked for one; recording compiles to nothing.
struct no_log {
  constexpr void record(rewrite_kind, std::string_view, std::string_view,
                        std::string_view) const noexcept {}
};

}  // namespace retarget

#endif  // RETARGET_CORE_REWRITE_LOG_HPP
