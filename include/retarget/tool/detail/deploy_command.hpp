// retarget deploy: seed 003's tools/deploy.py for the zoo's models. For each deploy config:
// export as its onnx_config says (with its backend's rewrites), convert with the backend's
// manager, run on the test input, compare with PyTorch's output. Every file is made in a
// staging folder beside the work dir and moved in only when all stages passed.
#ifndef RETARGET_TOOL_DETAIL_DEPLOY_COMMAND_HPP
#define RETARGET_TOOL_DETAIL_DEPLOY_COMMAND_HPP

#include <boost/json/serialize.hpp>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <retarget/backend/compare.hpp>
#include <retarget/backend/pipeline.hpp>
#include <retarget/backends/onnxruntime/backend.hpp>
#include <retarget/config.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/model_parts.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/tool/detail/common.hpp>
#include <retarget/tool/detail/partition_files.hpp>
#include <sstream>

namespace retarget::tool::detail {

using clock_type = std::chrono::steady_clock;

inline double since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// One config's line in the final table.
struct deploy_row {
  std::string config, backend;
  std::vector<std::string> files;
  std::optional<double> max_abs_error;
  double seconds = 0;
  std::string result;  // "pass", "exported only: ... not available", or "FAIL"
};

template <class Models, class F>
void visit_zoo(std::string_view name, F&& f) {
  bool found = false;
  std::vector<std::string_view> names;
  boost::mp11::mp_for_each<Models>([&](auto entry) {
    names.push_back(decltype(entry)::name);
    if (!found && decltype(entry)::name == name) {
      found = true;
      f(entry);
    }
  });
  if (!found)
    throw usage_error("retarget: deploy: the zoo has no model '" + std::string(name) +
                      "' (closest: " + retarget::join_names(retarget::closest_names(name, names)) +
                      ")");
}

// Moves what the staging folder holds into the work dir: the folder itself when the work
// dir does not exist yet, else file by file.
inline std::vector<std::string> move_into(const fs::path& staging, const fs::path& work_dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(staging))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  if (!fs::exists(work_dir)) {
    fs::rename(staging, work_dir);
    return names;
  }
  for (const auto& n : names) fs::rename(staging / n, work_dir / n);
  return names;
}

// "  [2/5] export  ...": a stage's line; a step within the stage before it (the cut, within the
// export) is number 0, and is indented under it.
inline void stage(std::ostream& out, int number, std::string_view name, const std::string& text,
                  double seconds) {
  out << (number > 0 ? "  [" + std::to_string(number) + "/5] " : std::string(8, ' ')) << std::left
      << std::setw(8) << name << text << " (" << detail::seconds(seconds) << ")\n"
      << std::flush;
}

// The exported model on other engines against the deployed backend, on the test inputs
// (retarget compare's library call); a difference fails the deploy.
template <class Managers>
boost::json::array compare_engines(const fs::path& onnx_file,
                                   const retarget::backend::run_target& deployed,
                                   const std::vector<std::string>& engines,
                                   const retarget::backend::tensor_map& feeds, double tolerance,
                                   std::string_view model_name, const fs::path& work_dir,
                                   std::ostream& out) {
  namespace rb = retarget::backend;
  boost::json::array results;
  if (engines.empty()) return results;
  const auto t0 = clock_type::now();
  const std::string& backend = deployed.engine;
  std::vector<rb::run_target> candidates;
  for (const auto& e : engines) candidates.push_back({e, onnx_file});
  const auto c =
      rb::compare<Managers>(deployed, candidates, feeds, {.atol = tolerance, .rtol = 1e-3});
  for (const auto& e : c.candidates) {
    std::string text = e.target.engine + " against " + backend + ": ";
    double worst = 0;
    for (const auto& o : e.outputs) worst = std::max(worst, o.difference.max_abs);
    text += e.failure.empty() ? "max abs error " + scientific(worst) : "does not run";
    out << "  compare  " << text << (e.passes() ? ": pass" : ": FAIL") << " (" << seconds(since(t0))
        << ")\n";
    results.push_back(boost::json::object{{"engine", e.target.engine},
                                          {"max_abs_error", worst},
                                          {"pass", e.passes()},
                                          {"failure", e.failure}});
    if (!e.passes())
      throw retarget::error(
          "retarget: deploy: " + std::string(model_name) + ": " + e.target.engine + " " +
          (e.failure.empty() ? "differs from " + backend + " by " + scientific(worst) +
                                   " (see retarget compare --bisect)"
                             : "does not run the model: " + e.failure) +
          "; " + work_dir.string() + " is unchanged");
  }
  return results;
}

// One config deployed: the stages, each a member, sharing what the config and the command say.
template <class Managers, class Models>
struct deploy_job {
  const retarget::config::deploy_config& cfg;
  const fs::path& config_path;
  const fs::path& work_dir;
  double tolerance;
  const std::vector<std::string>& compare_with;
  clock_type::time_point start;
  std::ostream& out;
  deploy_row row;
  fs::path staged;  // where the files are made before they move to the work dir

  void run(bool skip_unavailable, std::string_view model_name) {
    Managers::visit(cfg.backend, [&](auto manager) {
      using M = decltype(manager);
      // Without the backend, --skip-unavailable still exports: the model in its dialect.
      if (!M::is_available() && !skip_unavailable)
        throw retarget::error("retarget: deploy: backend " + cfg.backend +
                              " is not available here (see retarget backends)");
      auto param = cfg.backend_param<M>();  // a bad backend_config fails before the export
      visit_zoo<Models>(model_name, [&](auto entry) { deploy<M, decltype(entry)>(param); });
    });
  }

 private:
  template <class M, class E>
  void deploy(typename M::param& param) {
    check_codebase<E>();
    constexpr std::size_t count = E::input_count;
    retarget::input_spec specs[count];
    const auto feeds = test_feeds<E>(specs);
    const auto staging = staging_folder();
    staged = staging.path();

    auto t0 = clock_type::now();
    const typename E::model model;
    auto exported = retarget::export_onnx<typename M::backend>(
        model, specs, cfg, retarget::config::export_options_for(cfg));
    exported.model.check();
    // Partitioned, the parts are what is deployed; the whole model is kept aside, for the
    // engines of --compare (the backend's own file may take its name).
    std::optional<retarget::backend::scratch_folder> aside;
    if (cfg.partition) aside.emplace(fs::temp_directory_path(), "retarget-deploy-whole");
    const auto onnx_file = (aside ? aside->path() : staging.path()) / *cfg.onnx.save_file;
    retarget::ir::save(exported.model, onnx_file);
    const auto report = retarget::to_string(exported.report);
    const auto nodes = exported.model.node_count();
    stage(out, 2, "export",
          onnx_file.filename().string() + ": " + std::to_string(nodes) +
              " nodes, rewrites: " + (report.empty() ? "none" : report),
          since(t0));

    // A partition_config: the backend's part and the rest, and the pipeline that runs them.
    std::optional<fs::path> rest_file;
    fs::path backend_onnx = onnx_file;
    boost::json::object summary_partition;
    if (cfg.partition) {
      t0 = clock_type::now();
      const auto& part = cfg.partition->partition_cfg->front();
      auto parts = [&] {
        const retarget::ir::model_view view(exported.model);
        try {
          return retarget::ir::split(exported.model, view,
                                     retarget::ir::nodes_computing(view, *part.end));
        } catch (const retarget::error& e) {
          const std::string what =
              std::string(e.what()).substr(std::string_view("retarget: ").size());
          cfg.document.fail("partition_config.partition_cfg[0].end",
                            what.starts_with("no node makes")
                                ? what + " in the exported model (is each a mark the model places?)"
                                : what);
        }
      }();
      const partition_files files(staging.path() / *part.save_file);
      backend_onnx = files.head;
      rest_file = files.tail;
      save_parts(parts, cfg.backend, exported.model.output_names(), files);
      std::string at;
      boost::json::array boundary;
      for (const auto& v : parts.boundary) {
        at += (at.empty() ? "" : ", ") + v;
        boundary.emplace_back(v);
      }
      summary_partition = boost::json::object{{"backend_part", backend_onnx.filename().string()},
                                              {"rest", rest_file->filename().string()},
                                              {"pipeline", files.pipeline.filename().string()},
                                              {"boundary", std::move(boundary)}};
      stage(out, 0, "cut",
            "at " + at + ": " + backend_onnx.filename().string() + " " +
                std::to_string(parts.head.node_count()) + " nodes on " + cfg.backend + ", " +
                rest_file->filename().string() + " " + std::to_string(parts.tail.node_count()) +
                " on onnxruntime",
            since(t0));
    }

    boost::json::object summary;
    summary["config"] = config_path.string();
    summary["model"] = E::name;
    summary["backend"] = cfg.backend;
    summary["backend_version"] = M::version();
    summary["onnx"] = boost::json::object{{"file", onnx_file.filename().string()},
                                          {"opset", *cfg.onnx.opset_version},
                                          {"nodes", nodes},
                                          {"rewrites", report}};
    if (rest_file) summary["partition"] = std::move(summary_partition);
    if (M::is_available()) {
      on_backend<M, E>(param, backend_onnx, rest_file, onnx_file, E::reference(exported.report),
                       feeds, summary);
      row.result = "pass";
    } else {
      out << "  [3/5] convert skipped: " << cfg.backend << " is not available here\n";
      summary["backend_files"] = boost::json::array();
      row.result = "exported only: " + cfg.backend + " not available";
    }
    summary["seconds"] = since(start);
    write_file(staging.path() / "summary.json", boost::json::serialize(summary) + "\n");
    row.files = move_into(staging.path(), work_dir);
    std::string listed;
    for (const auto& f : row.files) listed += (listed.empty() ? "" : ", ") + f;
    out << "  wrote " << work_dir.string() << ": " << listed << "\n";
  }

  // The zoo's models are the tutorial codebase's; the config's task must be the model's.
  template <class E>
  void check_codebase() const {
    if (*cfg.codebase.type != "tutorial")
      cfg.document.fail("codebase_config.type",
                        "is '" + *cfg.codebase.type + "', but the zoo's models are 'tutorial'");
    if (*cfg.codebase.task != E::task)
      cfg.document.fail("codebase_config.task", "is '" + *cfg.codebase.task + "', but " +
                                                    std::string(E::name) + " is a " +
                                                    std::string(E::task) + " model");
  }

  // E's test inputs, renamed as the config names the model's inputs (specs, for the export);
  // an input_shape that is not theirs fails, since the reference is for their size.
  template <class E>
  retarget::backend::tensor_map test_feeds(std::span<retarget::input_spec> specs) const {
    retarget::backend::tensor_map feeds;
    std::size_t i = 0;
    for (const auto& [name, file] : E::test_inputs()) {
      auto t = retarget::ir::read_tensor_file(file);
      const auto dims = t.dims();
      specs[i] = retarget::config::input_spec_for(cfg, i, specs.size(), t.type(), dims);
      if (const auto& wh = *cfg.onnx.input_shape;
          wh && dims.size() >= 2 && ((*wh)[0] != dims.back() || (*wh)[1] != dims[dims.size() - 2]))
        cfg.document.fail("onnx_config.input_shape",
                          "is " + retarget::ir::format_dims(*wh) + ", but " + std::string(E::name) +
                              "'s test input '" + name + "' is " + retarget::ir::format_dims(dims) +
                              ": its reference is for that size");
      feeds.emplace(specs[i].name, std::move(t));
      ++i;
    }
    return feeds;
  }

  // A scratch folder beside the work dir, where every file is made first.
  retarget::backend::scratch_folder staging_folder() const {
    const fs::path parent = work_dir.parent_path().empty() ? fs::path(".") : work_dir.parent_path();
    std::error_code ec;
    if (fs::exists(work_dir, ec) && !fs::is_directory(work_dir, ec))
      throw retarget::error("retarget: cannot write " + work_dir.string() +
                            ": a file is in the way of the work dir");
    retarget::backend::make_folder(parent);
    return retarget::backend::scratch_folder(parent, "retarget-deploy");
  }

  // Stages 3 to 5 on the backend: convert, run on the test inputs, verify against PyTorch's
  // output; then the other engines, if asked for. A failure throws: nothing is moved in.
  // With a partition, onnx_file is the backend's part, and ONNX Runtime runs rest_file after
  // it, on what it gives.
  template <class M, class E>
  void on_backend(typename M::param& param, const fs::path& onnx_file,
                  const std::optional<fs::path>& rest_file, const fs::path& whole_model,
                  const fs::path& reference_file, const retarget::backend::tensor_map& feeds,
                  boost::json::object& summary) {
    auto t0 = clock_type::now();
    param.work_dir = staged.string();
    const auto backend_files = M::to_backend(onnx_file, param);
    std::string file_names;
    for (const auto& f : backend_files)
      file_names += (file_names.empty() ? "" : ", ") + f.filename().string();
    stage(out, 3, "convert", cfg.backend + ": " + file_names, since(t0));

    t0 = clock_type::now();
    auto wrapper = M::build_wrapper(backend_files, param);
    auto outputs = wrapper.run(feeds);
    if (rest_file) {
      auto values = feeds;
      for (const auto& [name, t] : outputs) values.insert_or_assign(name, t);
      const retarget::backend::scratch_folder scratch(fs::temp_directory_path(),
                                                      "retarget-deploy-rest");
      auto rest =
          retarget::backend::run_model<Managers>({rest_engine, *rest_file}, values, scratch.path());
      outputs.merge(rest);
    }
    const auto& output_name = cfg.onnx.output_names->front();
    const auto found = outputs.find(output_name);
    if (found == outputs.end())
      throw retarget::error("retarget: deploy: the backend gave no output '" + output_name + "'");
    stage(out, 4, "run",
          output_name + ": " + std::string(to_string(found->second.type())) + " " +
              retarget::ir::format_dims(found->second.dims()),
          since(t0));

    t0 = clock_type::now();
    const double error = retarget::ir::max_abs_difference(
        found->second, retarget::ir::read_tensor_file(reference_file));
    row.max_abs_error = error;
    const bool pass = error <= tolerance;
    stage(out, 5, "verify",
          "max abs error " + scientific(error) + " against PyTorch's " +
              reference_file.filename().string() + ", tolerance " + scientific(tolerance) +
              (pass ? ": pass" : ": FAIL"),
          since(t0));
    if (!pass)
      throw retarget::error("retarget: deploy: " + std::string(E::name) + " on " + cfg.backend +
                            ": max abs error " + scientific(error) + " exceeds the tolerance " +
                            scientific(tolerance) + "; " + work_dir.string() + " is unchanged");

    // The other engines run the whole model: against the pipeline, where there is one.
    const auto pipeline_file = partition_files(onnx_file).pipeline;
    summary["compare"] =
        rest_file ? compare_engines<Managers>(
                        whole_model, {cfg.backend + "+" + rest_engine, pipeline_file}, compare_with,
                        feeds, tolerance, E::name, work_dir, out)
                  : compare_engines<Managers>(onnx_file, {cfg.backend, onnx_file}, compare_with,
                                              feeds, tolerance, E::name, work_dir, out);
    boost::json::array files;
    for (const auto& f : backend_files) files.emplace_back(f.filename().string());
    summary["backend_files"] = std::move(files);
    summary["reference"] = reference_file.filename().string();
    summary["max_abs_error"] = error;
    summary["tolerance"] = tolerance;
  }
};

template <class Managers, class Models>
deploy_row deploy_one(const fs::path& config_path, std::string_view model_name,
                      const fs::path& work_dir, double tolerance, bool skip_unavailable,
                      const std::vector<std::string>& compare_with, std::ostream& out) {
  const auto start = clock_type::now();
  out << config_path.string() << "\n";
  const auto cfg = retarget::config::load_deploy_config(config_path);
  stage(out, 1, "config",
        "backend " + cfg.backend + ", opset " + std::to_string(*cfg.onnx.opset_version) + ", " +
            std::to_string(cfg.document.files().size()) + " files with its bases",
        since(start));

  deploy_job<Managers, Models> job{cfg,   config_path, work_dir, tolerance, compare_with,
                                   start, out,         {},       {}};
  job.row.config = config_path.stem().string();
  job.row.backend = cfg.backend;
  try {
    job.run(skip_unavailable, model_name);
  } catch (const usage_error&) {
    throw;
  } catch (const retarget::error& e) {  // an error names the work dir, not the staging folder
    if (job.staged.empty()) throw;
    throw retarget::error(retarget::backend::with_model_named(e.what(), {job.staged}, work_dir));
  }
  job.row.seconds = since(start);
  return job.row;
}

inline void print_table(const std::vector<deploy_row>& rows, std::ostream& out) {
  const auto pad = [](std::string s, std::size_t width) {
    if (s.size() < width) s.resize(width, ' ');
    return s + "  ";
  };
  std::size_t config_width = 6, files_width = 5;
  std::vector<std::string> files(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (const auto& f : rows[i].files) files[i] += (files[i].empty() ? "" : ", ") + f;
    if (files[i].empty()) files[i] = "-";
    config_width = std::max(config_width, rows[i].config.size());
    files_width = std::max(files_width, files[i].size());
  }
  out << "\n"
      << pad("config", config_width) << pad("backend", 11) << pad("files", files_width)
      << pad("max abs error", 13) << pad("time", 7) << "result\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    out << pad(r.config, config_width) << pad(r.backend, 11) << pad(files[i], files_width)
        << pad(r.max_abs_error ? scientific(*r.max_abs_error) : "-", 13)
        << pad(seconds(r.seconds), 7) << r.result << "\n";
  }
}

template <class Managers, class Models>
int deploy(const deploy_options& o, arguments& args, std::ostream& out) {
  const std::string& model = o.model;
  const fs::path work_dir = o.work_dir.value;
  const bool skip_unavailable = o.skip_unavailable;
  std::vector<std::string> compare_with;
  std::istringstream engines(o.compare);
  for (std::string e; std::getline(engines, e, ',');) {
    Managers::visit(e, [](auto) {});  // an unknown name, before anything is exported
    compare_with.push_back(e);
  }
  const double tolerance = o.tolerance;
  const auto configs = args.positionals(retarget::options::option_names<deploy_options>());
  if (configs.empty()) throw usage_error("retarget: deploy needs at least one CONFIG.json");
  if (configs.size() == 1) {
    const auto row = deploy_one<Managers, Models>(configs.front(), model, work_dir, tolerance,
                                                  skip_unavailable, compare_with, out);
    return row.result.empty() ? 1 : 0;
  }
  // Several configs: each into its own folder; a failure is reported and the rest go on.
  std::vector<deploy_row> rows;
  int failed = 0;
  for (const auto& c : configs) {
    const fs::path config(c);
    try {
      rows.push_back(deploy_one<Managers, Models>(config, model, work_dir / config.stem(),
                                                  tolerance, skip_unavailable, compare_with, out));
    } catch (const std::exception& e) {
      std::cout.flush();
      std::cerr << e.what() << "\n";
      deploy_row row;
      row.config = config.stem().string();
      row.backend = "-";
      row.result = "FAIL (see above)";
      rows.push_back(row);
      ++failed;
    }
  }
  print_table(rows, out);
  out << "\n"
      << rows.size() - static_cast<std::size_t>(failed) << " of " << rows.size()
      << " configs deployed (or exported only, where the backend is not available); " << failed
      << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace retarget::tool::detail

#endif  // RETARGET_TOOL_DETAIL_DEPLOY_COMMAND_HPP
