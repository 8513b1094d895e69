// An export session: the graph being traced into, the deploy config the caller supplied,
// and the log of the rewrites that fired. One per export, so exports share no state.
#ifndef RETARGET_TRACE_SESSION_HPP
#define RETARGET_TRACE_SESSION_HPP

#include <boost/core/demangle.hpp>
#include <memory>
#include <retarget/core/error.hpp>
#include <retarget/core/rewrite_env.hpp>
#include <retarget/core/rewrite_log.hpp>
#include <retarget/ir/graph.hpp>
#include <string>
#include <typeinfo>
#include <unordered_map>

namespace retarget::trace {

// The deploy config, whatever its type: rewrites ask for the type they expect.
//   const auto& c = ctx.cfg().as<my_config>();
class config_ref {
 public:
  config_ref() = default;
  template <class T>
  explicit config_ref(const T& config) : object_(&config), type_(&typeid(T)) {}

  bool empty() const noexcept { return object_ == nullptr; }
  template <class T>
  bool holds() const noexcept {
    return type_ && *type_ == typeid(T);
  }
  template <class T>
  const T& as() const {
    if (!holds<T>())
      throw error("retarget: the deploy config is " +
                  (type_ ? boost::core::demangle(type_->name()) : std::string("absent")) +
                  ", not the " + boost::core::demangle(typeid(T).name()) + " a rewrite asked for");
    return *static_cast<const T*>(object_);
  }

 private:
  const void* object_ = nullptr;
  const std::type_info* type_ = nullptr;
};

using env = rewrite_env<config_ref, rewrite_log>;

class session {
 public:
  explicit session(int opset, config_ref config) : graph_(opset), config_(config) {}
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  ir::graph& graph() noexcept { return graph_; }
  const config_ref& config() const noexcept { return config_; }
  // Whether trace::mark names its values (export_options::apply_marks), or passes them on.
  bool marks_applied() const noexcept { return apply_marks_; }
  void apply_marks(bool on) noexcept { apply_marks_ = on; }
  rewrite_log& log() noexcept { return log_; }
  env environment() noexcept { return env(config_, &log_); }

  // The initializer of a parameter, made once however often the parameter is used; it shares
  // the parameter's bytes rather than copying them.
  ir::value parameter(const void* key, const std::string& name,
                      std::shared_ptr<const ir::tensor> data) {
    if (const auto it = parameters_.find(key); it != parameters_.end()) return it->second;
    std::string unique = name.empty() ? "param_" + std::to_string(parameters_.size()) : name;
    // A graph input may already have the name: the parameter takes the next free one.
    for (int k = 1; names_.count(unique) || graph_.has_name(unique); ++k)
      unique = name + "_" + std::to_string(k);
    names_.insert(unique);
    const auto v = graph_.initializer(unique, std::move(data));
    parameters_.emplace(key, v);
    return v;
  }
  // For weights held by value (a converter's weight store): copied once, at the first use.
  ir::value parameter(const void* key, const std::string& name, const ir::tensor& data) {
    if (const auto it = parameters_.find(key); it != parameters_.end()) return it->second;
    return parameter(key, name, std::make_shared<const ir::tensor>(data));
  }

 private:
  ir::graph graph_;
  config_ref config_;
  bool apply_marks_ = false;
  rewrite_log log_;
  std::unordered_map<const void*, ir::value> parameters_;
  std::unordered_set<std::string> names_;
};

}  // namespace retarget::trace

#endif  // RETARGET_TRACE_SESSION_HPP
