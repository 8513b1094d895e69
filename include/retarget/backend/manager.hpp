// Backend managers: one per backend tag, the entry to everything about an engine, as in
// "How to support new backends": its param, availability and version, an environment
// report, conversion of an ONNX file to the engine's files, and an inference wrapper.
// Managers are checked at compile time, with one readable error per missing piece. The
// managers retarget ships live in their engines' packages (retarget/backends/NAME/).
#ifndef RETARGET_BACKEND_MANAGER_HPP
#define RETARGET_BACKEND_MANAGER_HPP

#include <boost/json/fwd.hpp>
#include <boost/mp11/algorithm.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <retarget/core/backend.hpp>
#include <retarget/core/closest_names.hpp>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/options/field.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace retarget::backend {

// What a wrapper takes and gives: tensors by name.
using tensor_map = std::map<std::string, ir::tensor>;
using file_list = std::vector<std::filesystem::path>;

template <class W>
concept Wrapper = requires(W& w, const tensor_map& in) {
  { w.run(in) } -> std::same_as<tensor_map>;
};

namespace detail {

// Each piece a manager needs, once; the concept and the diagnostics below both read these.
template <class M>
struct manager_requirements {
  // Nested requirements, so that a missing type is a false answer, not an error of its own.
  static constexpr bool backend = requires {
    typename M::backend;
    requires Backend<typename M::backend>;
  };
  static constexpr bool param = requires {
    typename M::param;
    requires options::Described<typename M::param>;
  };
  static constexpr bool is_available = requires {
    { M::is_available() } -> std::convertible_to<bool>;
  };
  static constexpr bool version = requires {
    { M::version() } -> std::convertible_to<std::string>;
  };
  static constexpr bool check_env = requires {
    { M::check_env() } -> std::convertible_to<std::string>;
  };
  template <class P>
  static constexpr bool model_files = requires(const P& p) {
    { M::model_files(p) } -> std::convertible_to<file_list>;
  };
  template <class P>
  static constexpr bool to_backend = requires(const P& p) {
    { M::to_backend(std::filesystem::path(), p) } -> std::convertible_to<file_list>;
  };
  template <class P>
  static constexpr bool build_wrapper = requires(const P& p, const file_list& files) {
    { M::build_wrapper(files, p) } -> Wrapper;
  };
  template <class P>
  static constexpr bool param_from_config = requires(const boost::json::value& j) {
    { M::param_from_config(j, std::string()) } -> std::same_as<P>;
  };
  template <class P>
  static constexpr bool with_param =
      model_files<P>&& to_backend<P>&& build_wrapper<P>&& param_from_config<P>;
};

template <class M, bool HasParam = manager_requirements<M>::param>
struct param_requirements {
  static constexpr bool model_files = true, to_backend = true, build_wrapper = true,
                        param_from_config = true;
};
template <class M>
struct param_requirements<M, true> {
  using R = manager_requirements<M>;
  using P = typename M::param;
  static constexpr bool model_files = R::template model_files<P>;
  static constexpr bool to_backend = R::template to_backend<P>;
  static constexpr bool build_wrapper = R::template build_wrapper<P>;
  static constexpr bool param_from_config = R::template param_from_config<P>;
};

// One static_assert per missing piece, so a manager missing two pieces gets two clear lines.
template <class M>
struct manager_checks {
  using R = manager_requirements<M>;
  using PR = param_requirements<M>;
  static_assert(R::backend, "retarget: backend manager has no `using backend = <a Backend tag>;`");
  static_assert(
      R::param,
      "retarget: backend manager has no `using param = ...;` described with BOOST_DESCRIBE_STRUCT");
  static_assert(R::is_available, "retarget: backend manager has no static bool is_available()");
  static_assert(R::version, "retarget: backend manager has no static std::string version()");
  static_assert(R::check_env, "retarget: backend manager has no static std::string check_env()");
  static_assert(PR::model_files,
                "retarget: backend manager has no static file_list model_files(const param&)");
  static_assert(
      PR::to_backend,
      "retarget: backend manager has no static file_list to_backend(const std::filesystem::path& "
      "onnx, const param&)");
  static_assert(
      PR::build_wrapper,
      "retarget: backend manager has no static build_wrapper(const file_list&, const param&) "
      "returning a Wrapper");
  static_assert(
      PR::param_from_config,
      "retarget: backend manager has no static param param_from_config(const boost::json::value&, "
      "const std::string& where)");
  static constexpr bool value = true;
};

// A manager's backend name; empty for one that has none, which manager_checks reports, so
// that the report is the only error.
template <class M>
constexpr std::string_view name_of() {
  if constexpr (manager_requirements<M>::backend)
    return M::backend::name;
  else
    return {};
}

template <class... M>
constexpr bool manager_names_unique() {
  constexpr std::string_view names[] = {name_of<M>()..., {}};
  for (std::size_t i = 0; i < sizeof...(M); ++i)
    for (std::size_t j = i + 1; j < sizeof...(M); ++j)
      if (!names[i].empty() && names[i] == names[j]) return false;
  return true;
}

}  // namespace detail

template <class M>
concept Manager = requires {
  typename M::backend;
  typename M::param;
}
&&detail::manager_requirements<M>::backend&& detail::manager_requirements<M>::param&&
    detail::manager_requirements<M>::is_available&& detail::manager_requirements<M>::version&&
        detail::manager_requirements<M>::check_env&&
            detail::manager_requirements<M>::template with_param<typename M::param>;

// Checks each manager (with the errors above) and finds one by name at run time.
template <class... Managers>
struct manager_list {
  static_assert((detail::manager_checks<Managers>::value && ...));
  // A second engine of one name could never be reached by name.
  static_assert(detail::manager_names_unique<Managers...>(),
                "retarget: two managers of a manager_list have the same backend name");

  static std::vector<std::string_view> names() { return {detail::name_of<Managers>()...}; }

  // Calls f(M{}) for the manager named `name`; retarget::error with the closest names if none.
  template <class F>
  static auto visit(std::string_view name, F&& f) {
    using result =
        std::invoke_result_t<F, boost::mp11::mp_first<boost::mp11::mp_list<Managers...>>>;
    if constexpr (std::is_void_v<result>) {
      bool found = false;
      ((!found && detail::name_of<Managers>() == name ? (found = true, f(Managers{}), 0) : 0), ...);
      if (!found) unknown(name);
    } else {
      std::optional<result> out;
      ((!out && detail::name_of<Managers>() == name ? (out.emplace(f(Managers{})), 0) : 0), ...);
      if (!out) unknown(name);
      return std::move(*out);
    }
  }

 private:
  [[noreturn]] static void unknown(std::string_view name) {
    throw error("retarget: unknown backend '" + std::string(name) + "' (closest: " +
                retarget::join_names(retarget::closest_names(name, names())) + ")");
  }
};

// Creates a folder and its parents; retarget::error naming it when it cannot be (a file in the
// way, a read-only parent, no space).
RETARGET_COMPILED_DECL void make_folder(const std::filesystem::path& dir);

// For engines that run the ONNX file itself: the model is checked as read (a file that is not
// a model, external data missing or outside its folder, a graph no engine can run), then
// written where the param says its files go, atomically, with its external data beside it when
// it has any. Returns the files written.
RETARGET_COMPILED_DECL file_list copy_model_into_place(const std::filesystem::path& onnx_file,
                                                       const std::filesystem::path& target);

// An engine's error names the copy of a model it was given (in a scratch folder, say): this
// names the user's model instead. Longer paths go first, so that FILE.onnx.data is not taken
// for FILE.onnx followed by ".data".
RETARGET_COMPILED_DECL std::string with_model_named(std::string what, file_list files,
                                                    const std::filesystem::path& model);

// A temporary folder, PARENT/.TAG-PID-N, removed with everything in it when it goes out of
// scope: where a command or a comparison puts the files an engine makes. PARENT must exist; the
// error names it, not the temporary name.
class scratch_folder {
 public:
  RETARGET_COMPILED_DECL scratch_folder(const std::filesystem::path& parent, std::string_view tag);
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  RETARGET_COMPILED_DECL ~scratch_folder();
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

// Runs a model on M's engine: M::to_backend converts `model` into param.work_dir, unless
// `made` holds the engine's files already (from an earlier convert); then the wrapper is built
// and run on `inputs`. The engine's error about a copy it converted names `model` instead.
// retarget::error when M is not available here or its engine fails.
template <class M>
tensor_map run_on_engine(const std::filesystem::path& model, const typename M::param& param,
                         const tensor_map& inputs, std::optional<file_list> made = std::nullopt) {
  if (!M::is_available())
    throw error("retarget: backend " + std::string(M::backend::name) +
                " is not available here (see retarget backends)");
  const file_list files = made ? std::move(*made) : M::to_backend(model, param);
  try {
    auto wrapper = M::build_wrapper(files, param);
    return wrapper.run(inputs);
  } catch (const error& e) {
    if (made) throw;  // the user's own files, named as they are
    throw error(with_model_named(e.what(), files, model));
  }
}

// Where a program is on PATH, or empty.
RETARGET_COMPILED_DECL std::filesystem::path find_program(std::string_view name);

}  // namespace retarget::backend

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/backend/detail/manager_impl.hpp>
#endif

#endif  // RETARGET_BACKEND_MANAGER_HPP
