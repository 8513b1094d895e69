// retarget convert: an existing ONNX model rewritten for a backend, with the report; and the
// engine's refusals that `retarget check --backend NAME` lists.
#include <algorithm>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/inspect.hpp>

#include "cli.hpp"

namespace cli {

namespace {

std::string one_model(arguments& args, std::string_view command) {
  const auto files = args.positionals();
  if (files.size() != 1)
    throw usage_error("retarget: " + std::string(command) + " takes one MODEL.onnx, got " +
                      std::to_string(files.size()));
  return files.front();
}

// Prints B's refusals of m; returns how many there are (nullopt: B has no table).
template <class B>
std::optional<std::size_t> print_refusals(const retarget::ir::model& m, std::ostream& out,
                                          const std::string& indent) {
  const auto refused = retarget::convert::refused_nodes<B>(m);
  if (!refused) return std::nullopt;
  for (const auto& r : *refused)
    out << indent << "node " << r.index << " " << r.node << ": " << r.why << "\n";
  return refused->size();
}

}  // namespace

int convert(arguments& args, std::ostream& out) {
  const std::string backend = args.required("--backend", "NAME");
  const auto output = args.one("--output", "-o");
  const bool explain = args.flag("--explain");
  const bool dry_run = args.flag("--dry-run");
  const auto approximations = args.all("--approximate");
  const auto passes = args.one("--max-passes");
  const fs::path path = one_model(args, "convert");
  if (!output && !dry_run) throw usage_error("retarget: convert needs -o OUT.onnx (or --dry-run)");

  retarget::convert::options options;
  options.approximations = approximations;
  if (passes) {
    if (passes->empty() || passes->size() > 4 ||
        passes->find_first_not_of("0123456789") != std::string::npos || *passes == "0")
      throw usage_error("retarget: convert --max-passes takes a number from 1 to 9999, not '" +
                        *passes + "'");
    options.max_passes = std::stoul(*passes);
  }
  const auto model = retarget::ir::load(path);
  return managers::visit(backend, [&](auto manager) {
    using B = typename decltype(manager)::backend;
    const auto offered = retarget::convert::approximations_of<B>();
    for (const auto& a : approximations)
      if (std::find(offered.begin(), offered.end(), a) == offered.end())
        throw usage_error(
            "retarget: convert: " + std::string(B::name) + " has no approximation '" + a + "' (" +
            (offered.empty()
                 ? std::string("it has none")
                 : "closest: " + retarget::join_names(retarget::closest_names(a, offered))) +
            ")");
    auto [converted, report] = [&] {
      try {
        return retarget::convert::convert<B>(model, options);
      } catch (const retarget::error& e) {  // the file, then what is wrong and where
        std::string_view what = e.what();
        if (what.starts_with("retarget: ")) what.remove_prefix(10);
        throw retarget::error("retarget: convert: " + path.string() + ": " + std::string(what));
      }
    }();
    out << path.string() << ": " << to_string(report, explain);
    if (const auto refused = print_refusals<B>(converted, out, "  refused: "))
      out << "  " << B::name << " refuses " << *refused << (*refused == 1 ? " node" : " nodes")
          << " of the result\n";
    if (dry_run) {
      out << "dry run: nothing written\n";
      return 0;
    }
    retarget::ir::save(converted, *output);
    out << "wrote " << *output << " (" << retarget::ir::human_bytes(fs::file_size(*output))
        << ")\n";
    return 0;
  });
}

int check_for_backend(const fs::path& path, const std::string& backend, std::ostream& out) {
  const auto model = retarget::ir::load(path);
  return managers::visit(backend, [&](auto manager) {
    using B = typename decltype(manager)::backend;
    const auto refused = retarget::convert::refused_nodes<B>(model);
    if (!refused) {
      out << path.string() << ": " << B::name << " has no table of what its engine refuses\n";
      return 0;
    }
    if (refused->empty()) {
      out << path.string() << ": " << B::name << " refuses no node\n";
      return 0;
    }
    out << path.string() << ": " << B::name << " refuses " << refused->size()
        << (refused->size() == 1 ? " node" : " nodes") << " (retarget convert --backend " << B::name
        << " rewrites those it can):\n";
    for (const auto& r : *refused)
      out << "  node " << r.index << " " << r.node << ": " << r.why << "\n";
    return 1;
  });
}

}  // namespace cli
