// Every command of the retarget tool against every bad input a user can give it: the tool
// must print exactly one line on stderr that starts with "retarget:", names the file and what
// is wrong with it, exit non-zero, and leave the folder it was given as it was (no partial
// output, no temporary file or scratch folder left behind). No text of the standard library or
// of protobuf may reach the user unexplained. docs/reliability.md lists the cases and the
// messages this test prints (RETARGET_SWEEP_TABLE=FILE writes them as a table).
//
// A cell whose input the command has no reason to refuse (a huge declared dim, which inspect
// shows and convert keeps) must succeed instead; the table says which.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>
#include <string_view>
#include <vector>

#include "reliability/common.hpp"
#include "support/strict.hpp"

extern char** environ;

namespace {

using namespace retarget::literals;
namespace fs = std::filesystem;
namespace rx = retarget::ir;
using reliability::read_all;

// ---------------------------------------------------------------------------------------------
// Running the tool

struct outcome {
  int status = -1;
  std::string out, err;
};

// The tool runs with TMPDIR at LOGS/tmp, so that the scratch folders run and compare make
// there are seen too: the caller checks that none is left.
outcome run_tool(const std::vector<std::string>& args, const fs::path& logs) {
  std::vector<char*> argv;
  std::string tool = RETARGET_CLI;
  argv.push_back(tool.data());
  std::vector<std::string> copies(args);
  for (auto& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto out_file = logs / "stdout", err_file = logs / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = 0;
  std::vector<std::string> variables{"TMPDIR=" + (logs / "tmp").string()};
  for (char** e = environ; *e; ++e)
    if (!std::string_view(*e).starts_with("TMPDIR=")) variables.emplace_back(*e);
  std::vector<char*> env;
  for (auto& v : variables) env.push_back(v.data());
  env.push_back(nullptr);
  fs::create_directories(logs / "tmp");
  const int spawned = posix_spawn(&pid, tool.c_str(), &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  outcome result;
  if (spawned != 0) {
    result.err = std::string("cannot start ") + tool + ": " + std::strerror(spawned);
    return result;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_all(out_file);
  result.err = read_all(err_file);
  return result;
}

// Every path under a folder with its size and contents, to see that nothing changed.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    const auto name = fs::relative(it->path(), dir).string();
    if (it->is_directory()) {
      files[name + "/"] = "";
      if (::access(it->path().c_str(), R_OK | X_OK) != 0) it.disable_recursion_pending();
    } else {
      files[name] = it->is_regular_file() ? read_all(it->path()) : "(special)";
    }
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// The catalogue of bad inputs, written into the test's folder

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

onnx::ValueInfoProto value_info(const std::string& name, std::vector<std::int64_t> dims) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  auto* t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
  return v;
}

// A model written as protobuf, as another tool might: nodes are (op, inputs, outputs, name).
struct raw_node {
  std::string op;
  std::vector<std::string> inputs, outputs;
  std::string name;
};
std::string raw_model(const std::vector<raw_node>& nodes,
                      std::vector<std::int64_t> dims = {1, 3, 4, 4}) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  *g->add_input() = value_info("x", dims);
  *g->add_output() = value_info("y", dims);
  for (const auto& n : nodes) {
    auto* p = g->add_node();
    p->set_op_type(n.op);
    p->set_name(n.name);
    for (const auto& i : n.inputs) p->add_input(i);
    for (const auto& o : n.outputs) p->add_output(o);
  }
  return m.SerializeAsString();
}

// y = relu(x + w): x float32 [1, 3, 4, 4], w an initializer of `copies` x [3, 4, 4] (the model
// grows with it).
rx::model good_model(std::int64_t copies = 1) {
  rx::graph g;
  auto x = g.input("x", rx::dtype::f32, {1, 3, 4, 4});
  std::vector<float> weights(static_cast<std::size_t>(copies) * 48);
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i % 7) * 0.5f;
  auto w = g.initializer("w", rx::tensor::of(weights, {copies, 3, 4, 4}));
  g.output(g.op("Relu", g.op("Add", x, w)), "y");
  return rx::make_model(std::move(g));
}

std::string tensor_file(rx::dtype type, std::vector<std::int64_t> dims) {
  std::int64_t count = 1;
  for (auto d : dims) count *= d;
  if (type == rx::dtype::i64)
    return rx::tensor::of(std::vector<std::int64_t>(static_cast<std::size_t>(count), 1), dims)
        .proto()
        .SerializeAsString();
  return rx::tensor::of(std::vector<float>(static_cast<std::size_t>(count), 0.5f), dims)
      .proto()
      .SerializeAsString();
}

// The files every cell starts from, in `dir`: good inputs and one bad file of each kind.
void write_catalogue(const fs::path& dir) {
  auto good = good_model();
  rx::save(good, dir / "good.onnx");
  const auto good_bytes = read_all(dir / "good.onnx");
  write(dir / "x.pb", tensor_file(rx::dtype::f32, {1, 3, 4, 4}));

  write(dir / "empty.onnx", "");
  fs::create_directory(dir / "folder.onnx");
  write(dir / "text.onnx", "this is not a model\n");
  write(dir / "truncated.onnx", good_bytes.substr(0, good_bytes.size() / 2));
  write(dir / "cycle.onnx", raw_model({{"Add", {"x", "b"}, {"a"}, "first"},
                                       {"Relu", {"a"}, {"b"}, "second"},
                                       {"Identity", {"a"}, {"y"}, "last"}}));
  write(dir / "dangling.onnx", raw_model({{"Add", {"x", "nowhere"}, {"y"}, "add"}}));
  write(dir / "unknown_op.onnx", raw_model({{"Frobnicate", {"x"}, {"y"}, "frob"}}));
  write(dir / "huge_dim.onnx", raw_model({{"Relu", {"x"}, {"y"}, "relu"}}, {1, 3, 100000, 100000}));

  // External data: saved beside the model, then the data file removed, or the location
  // pointed outside the folder (at a file that exists there).
  fs::create_directory(dir / "ext");
  auto external = good_model(64);
  rx::save(external, dir / "ext" / "missing_data.onnx", {.external_data_threshold = 64});
  fs::remove(dir / "ext" / "missing_data.onnx.data");
  rx::save(external, dir / "ext" / "outside_data.onnx",
           {.external_data_threshold = 64, .external_data_file = "outside_data.data"});
  fs::rename(dir / "ext" / "outside_data.data", dir / "outside_data.data");
  {
    auto proto = rx::read_model_file(dir / "ext" / "missing_data.onnx").proto();
    for (auto& e : *proto.mutable_graph()->mutable_initializer(0)->mutable_external_data())
      if (e.key() == "location") e.set_value("../outside_data.data");
    write(dir / "ext" / "outside_data.onnx", proto.SerializeAsString());
  }

  // Input tensors.
  write(dir / "x_int64.pb", tensor_file(rx::dtype::i64, {1, 3, 4, 4}));
  write(dir / "x_shape.pb", tensor_file(rx::dtype::f32, {1, 3, 8, 8}));
  write(dir / "x_text.pb", "not a tensor\n");

  // Deploy configs.
  write(dir / "empty.json", "");
  fs::create_directory(dir / "folder.json");
  write(dir / "text.json", "this is not JSON\n");
  write(dir / "truncated.json", R"({"_base_": ["a.json"], "onnx_config": {"opset_vers)");

  // A file where an output folder should be.
  write(dir / "a_file", "a file, not a folder\n");
}

// ---------------------------------------------------------------------------------------------
// The sweep: commands x inputs

// {in} is the bad input, {dir} the test's folder, {out} an output path in it.
struct command {
  std::string name;
  std::vector<std::string> args;
};

const std::vector<command>& model_commands() {
  static const std::vector<command> all = {
      {"inspect", {"inspect", "{in}"}},
      {"check", {"check", "{in}"}},
      {"check_backend", {"check", "{in}", "--backend", "opencv_dnn"}},
      {"draw", {"draw", "{in}", "-o", "{dir}/picture.svg"}},
      {"run", {"run", "{in}", "--backend", "onnxruntime", "--input", "x={dir}/x.pb"}},
      {"convert", {"convert", "{in}", "--backend", "opencv_dnn", "-o", "{dir}/out.onnx"}},
      {"convert_opset", {"convert", "{in}", "--opset", "13", "-o", "{dir}/out.onnx"}},
      {"compare", {"compare", "{in}", "--backends", "onnxruntime,opencv_dnn"}},
      {"compare_against",
       {"compare", "{dir}/good.onnx", "--backends", "onnxruntime", "--against", "{in}"}},
      {"backend_convert",
       {"backend", "onnxruntime", "convert", "--onnx-path", "{in}", "--work-dir", "{dir}/ort"}},
      // The console runs the model where its param says: the folder and the name of {in}.
      {"backend_run",
       {"backend", "onnxruntime", "run", "--work-dir", "{in_dir}", "--file-name", "{in_stem}",
        "--input", "x={dir}/x.pb"}},
  };
  return all;
}

// A bad input: the file, and what the message must say after "retarget: " (a regular
// expression searched in the line). `succeeds` lists the commands that must take it.
struct bad_input {
  std::string name, file, expect;
  std::vector<std::string> succeeds = {};
  std::map<std::string, std::string> expect_for = {};  // a command's own message
};

const std::vector<bad_input>& bad_models() {
  static const std::vector<bad_input> all = {
      {"missing file", "nothing.onnx", "cannot open .*nothing\\.onnx: No such file or directory"},
      {"empty file", "empty.onnx", "empty\\.onnx is an empty file, not an ONNX model"},
      {"a folder", "folder.onnx", "folder\\.onnx is a folder, not an ONNX model"},
      {"text", "text.onnx", "text\\.onnx is not a valid ONNX model \\(corrupt or truncated\\)"},
      {"truncated model", "truncated.onnx",
       "truncated\\.onnx is not a valid ONNX model \\(corrupt or truncated\\)"},
      {"a cycle", "cycle.onnx",
       "cycle\\.onnx: the graph has a cycle: these nodes wait on one another's outputs: node 0 "
       "'first' \\(Add\\), node 1 'second' \\(Relu\\)"},
      {"a dangling input", "dangling.onnx",
       "dangling\\.onnx: node 0 'add' \\(Add\\) reads 'nowhere', which no node, graph input or "
       "initializer gives"},
      {"an unknown op", "unknown_op.onnx",
       "unknown_op\\.onnx: node 0 'frob' \\(Frobnicate\\): Frobnicate \\(opset 17\\): unknown op"},
      {"a huge declared dim",
       "huge_dim.onnx",
       "huge_dim\\.onnx: input 'x' float32 \\[1, 3, 100000, 100000\\] is 111\\.8 GiB, more than "
       "the 1\\.0 GiB retarget generates",
       {"inspect", "check", "check_backend", "draw", "convert", "convert_opset", "backend_convert"},
       {{"run",
         "x\\.pb does not fit .*huge_dim\\.onnx: dims \\[1, 3, 4, 4\\], but the model's input "
         "'x' is \\[1, 3, 100000, 100000\\]"},
        {"backend_run",
         "x\\.pb does not fit .*huge_dim\\.onnx: dims \\[1, 3, 4, 4\\], but the model's input "
         "'x' is \\[1, 3, 100000, 100000\\]"},
        {"compare_against",
         "the inputs of .*good\\.onnx do not fit .*huge_dim\\.onnx: dims \\[1, 3, 4, 4\\], but "
         "the model's input 'x' is \\[1, 3, 100000, 100000\\]"}}},
      {"external data missing", "ext/missing_data.onnx",
       "missing_data\\.onnx: external data file .*missing_data\\.onnx\\.data of tensor 'w' "
       "cannot be opened"},
      {"external data outside the folder", "ext/outside_data.onnx",
       "outside_data\\.onnx: tensor 'w' has external data at '\\.\\./outside_data\\.data', "
       "outside the model's folder; refused"},
  };
  return all;
}

std::string substitute(std::string arg, const fs::path& dir, const std::string& in) {
  const auto replace = [&](std::string_view key, const std::string& value) {
    for (auto at = arg.find(key); at != std::string::npos; at = arg.find(key, at + value.size()))
      arg.replace(at, key.size(), value);
  };
  replace("{in_dir}", fs::path(in).parent_path().string());
  replace("{in_stem}", fs::path(in).stem().string());
  replace("{in}", in);
  replace("{dir}", dir.string());
  return arg;
}

// Words that mean a message was not written by retarget but passed through from below.
const char* const leaks[] = {"filesystem error", "std::",        "basic_string",
                             "libprotobuf",      "[libprotobuf", "terminate called",
                             "what():",          ".retarget-"};

// The table docs/reliability.md shows, when RETARGET_SWEEP_TABLE names a file.
std::map<std::string, std::map<std::string, std::string>>& table() {
  static std::map<std::string, std::map<std::string, std::string>> rows;
  return rows;
}
std::mutex table_mutex;

// Writes the table at the end of the run: case, command, the line the tool printed.
class table_writer : public ::testing::Environment {
 public:
  void TearDown() override {
    const char* file = std::getenv("RETARGET_SWEEP_TABLE");
    if (!file) return;
    std::ofstream out(file);
    for (const auto& [row, cells] : table())
      for (const auto& [column, line] : cells)
        out << "| " << row << " | " << column << " | `" << line << "` |\n";
  }
};
[[maybe_unused]] auto* const registered_table_writer =
    ::testing::AddGlobalTestEnvironment(new table_writer);

class Sweep : public reliability::scratch_folder {
 protected:
  void SetUp() override {
    scratch_folder::SetUp();
    logs_ = dir_.string() + "-logs";
    fs::create_directories(logs_);
    work_ = dir_ / "work";
    fs::create_directories(work_);
    write_catalogue(work_);
  }
  void TearDown() override {
    for (const auto& m : mounts_) ::umount2(m.c_str(), MNT_DETACH);
    fs::remove_all(logs_);
    scratch_folder::TearDown();
  }

  // A folder nothing can be written in: mode 0555, or for root (whom modes do not stop) a
  // read-only tmpfs. Empty when this machine allows neither; `why` says why.
  fs::path read_only_folder(std::string& why) {
    const auto dir = work_ / "read_only";
    fs::create_directory(dir);
    if (::geteuid() != 0) {
      fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                               fs::perms::group_exec | fs::perms::others_read |
                               fs::perms::others_exec);
      return dir;
    }
    if (::mount("tmpfs", dir.c_str(), "tmpfs", MS_RDONLY, "size=64k") != 0) {
      why = std::string("root cannot mount a read-only tmpfs here (") + std::strerror(errno) + ")";
      fs::remove(dir);
      return {};
    }
    mounts_.push_back(dir);
    return dir;
  }

  // A tmpfs of `bytes` at `dir`, for a real ENOSPC; false (and `why`) when it cannot be mounted.
  bool small_filesystem(const fs::path& dir, std::size_t bytes, std::string& why) {
    fs::create_directory(dir);
    const auto options = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) != 0) {
      why = std::string("cannot mount a tmpfs here (") + std::strerror(errno) +
            "): it needs root, or CAP_SYS_ADMIN in a container";
      return false;
    }
    mounts_.push_back(dir);
    return true;
  }

  std::vector<fs::path> mounts_;

  // Runs `args` (placeholders filled), and checks the one-line rule, the message and that
  // nothing in the folder changed. Returns the line.
  std::string expect_refused(const std::vector<std::string>& args, const std::string& input,
                             const std::string& expect, const std::string& names) {
    std::vector<std::string> filled;
    for (const auto& a : args) filled.push_back(substitute(a, work_, input));
    std::string shown;
    for (const auto& a : filled) shown += " " + a;
    const auto before = snapshot(work_);
    const auto r = run_tool(filled, logs_);
    SCOPED_TRACE("retarget" + shown + "\nstdout:\n" + r.out + "stderr:\n" + r.err);
    EXPECT_NE(r.status, 0);
    EXPECT_LT(r.status, 128) << "killed by a signal";
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line on stderr";
    EXPECT_TRUE(r.err.starts_with("retarget: ")) << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << "the line names " << names;
    EXPECT_TRUE(std::regex_search(r.err, std::regex(expect))) << "expected: " << expect;
    for (const char* leak : leaks) EXPECT_EQ(r.err.find(leak), std::string::npos) << leak;
    EXPECT_EQ(snapshot(work_), before) << "the folder changed";
    for (const auto& e : fs::directory_iterator(logs_ / "tmp"))  // others' files may be there
      EXPECT_FALSE(e.path().filename().string().starts_with(".retarget-"))
          << "a scratch folder is left in TMPDIR: " << e.path();
    return r.err.substr(0, r.err.find('\n'));
  }

  void expect_taken(const std::vector<std::string>& args, const std::string& input) {
    std::vector<std::string> filled;
    for (const auto& a : args) filled.push_back(substitute(a, work_, input));
    std::string shown;
    for (const auto& a : filled) shown += " " + a;
    const auto r = run_tool(filled, logs_);
    EXPECT_EQ(r.status, 0) << "retarget" << shown << "\nstdout:\n" << r.out << "stderr:\n" << r.err;
  }

  void record(const std::string& row, const std::string& column, const std::string& line) {
    std::string shown = line;
    for (auto at = shown.find(work_.string()); at != std::string::npos;
         at = shown.find(work_.string()))
      shown.replace(at, work_.string().size(), "/tmp/w");
    std::lock_guard lock(table_mutex);
    table()[row][column] = shown;
  }

  fs::path work_, logs_;
};

// -- every command that reads a model, on every bad model ----------------------------------

// A command of one table and an input of another.
struct cell {
  std::size_t command, input;
};

std::vector<cell> cells(std::size_t commands, std::size_t inputs) {
  std::vector<cell> all;
  for (std::size_t c = 0; c < commands; ++c)
    for (std::size_t i = 0; i < inputs; ++i) all.push_back({c, i});
  return all;
}

// A test's name from words: what is not a letter or a digit becomes '_'.
std::string test_name(std::string words) {
  for (auto& ch : words)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return words;
}

class ModelSweep : public Sweep, public ::testing::WithParamInterface<cell> {};

TEST_P(ModelSweep, OneLineNamingTheFileAndTheProblem) {
  const auto& command = model_commands()[GetParam().command];
  const auto& input = bad_models()[GetParam().input];
  const auto path = (work_ / input.file).string();
  if (std::find(input.succeeds.begin(), input.succeeds.end(), command.name) !=
      input.succeeds.end()) {
    expect_taken(command.args, path);
    record(input.name, command.name, "(taken)");
    return;
  }
  const auto own = input.expect_for.find(command.name);
  const auto line =
      expect_refused(command.args, path, own == input.expect_for.end() ? input.expect : own->second,
                     fs::path(input.file).filename().string());
  record(input.name, command.name, line);
}

INSTANTIATE_TEST_SUITE_P(Commands, ModelSweep,
                         ::testing::ValuesIn(cells(model_commands().size(), bad_models().size())),
                         [](const auto& info) {
                           return test_name(model_commands()[info.param.command].name + "_" +
                                            bad_models()[info.param.input].file);
                         });

// -- input tensors: run and compare ---------------------------------------------------------

const std::vector<command>& input_commands() {
  static const std::vector<command> all = {
      {"run", {"run", "{dir}/good.onnx", "--backend", "onnxruntime", "--input", "x={in}"}},
      {"compare",
       {"compare", "{dir}/good.onnx", "--backends", "onnxruntime,opencv_dnn", "--input", "x={in}"}},
      {"backend_run",
       {"backend", "onnxruntime", "run", "--work-dir", "{dir}", "--file-name", "good", "--input",
        "x={in}"}},
  };
  return all;
}

const std::vector<bad_input>& bad_tensors() {
  static const std::vector<bad_input> all = {
      {"input file missing", "nothing.pb", "cannot open .*nothing\\.pb: No such file or directory"},
      {"input file not a tensor", "x_text.pb", "x_text\\.pb is not an ONNX TensorProto file"},
      {"input of the wrong dtype", "x_int64.pb",
       "x_int64\\.pb does not fit .*good\\.onnx: int64, but the model's input 'x' is float32"},
      {"input of the wrong shape", "x_shape.pb",
       "x_shape\\.pb does not fit .*good\\.onnx: dims \\[1, 3, 8, 8\\], but the model's input 'x' "
       "is \\[1, 3, 4, 4\\]"},
  };
  return all;
}

// -- outputs in places nothing can be written -------------------------------------------------

// {out} is the output path or folder the case names.
const std::vector<command>& output_commands() {
  static const std::vector<command> all = {
      {"draw", {"draw", "{dir}/good.onnx", "-o", "{out}/picture.svg"}},
      {"draw_dot", {"draw", "{dir}/good.onnx", "-o", "{out}/picture.dot"}},
      {"convert",
       {"convert", "{dir}/good.onnx", "--backend", "opencv_dnn", "-o", "{out}/out.onnx"}},
      {"convert_opset", {"convert", "{dir}/good.onnx", "--opset", "13", "-o", "{out}/out.onnx"}},
      {"run",
       {"run", "{dir}/good.onnx", "--backend", "onnxruntime", "--input", "x={dir}/x.pb",
        "--output-dir", "{out}/outputs"}},
      {"backend_convert",
       {"backend", "onnxruntime", "convert", "--onnx-path", "{dir}/good.onnx", "--work-dir",
        "{out}/ort"}},
      {"deploy",
       {"deploy",
        RETARGET_SOURCE_DIR "/configs/super-resolution/super-resolution_onnxruntime_static.json",
        "--model", "srcnn", "--skip-unavailable", "--work-dir", "{out}/deployed"}},
  };
  return all;
}

// Where an output goes: the folder the command is given, what the line must name, and the
// message. Folders the command is given itself (--output-dir, --work-dir) are made with their
// parents, so a missing one is not an error for them.
struct bad_output {
  std::string name, folder, expect;
  bool folder_is_made = false;  // a folder the commands given one make, with its parents
};

const std::vector<bad_output>& bad_outputs() {
  static const std::vector<bad_output> all = {
      {"output folder missing", "{dir}/missing",
       "cannot write .*missing/(picture\\.svg|picture\\.dot|out\\.onnx): No such file or directory",
       true},
      {"a file where the folder should be", "{dir}/a_file",
       "cannot (write|create folder) .*a_file[^:]*: (Not a directory|a file is in the way)"},
      {"a read-only folder", "{read_only}",
       "cannot (write|write in|create folder) .*read_only[^:]*: (Read-only file system|Permission "
       "denied)"},
      {"a system folder", "/proc/retarget-sweep",
       "cannot (write|write in|create folder) /proc/retarget-sweep[^:]*: No such file or "
       "directory"},
  };
  return all;
}

class InputSweep : public Sweep, public ::testing::WithParamInterface<cell> {};

TEST_P(InputSweep, OneLineNamingTheFileAndTheProblem) {
  const auto& command = input_commands()[GetParam().command];
  const auto& input = bad_tensors()[GetParam().input];
  const auto line =
      expect_refused(command.args, (work_ / input.file).string(), input.expect, input.file);
  record(input.name, command.name, line);
}

INSTANTIATE_TEST_SUITE_P(Commands, InputSweep,
                         ::testing::ValuesIn(cells(input_commands().size(), bad_tensors().size())),
                         [](const auto& info) {
                           return test_name(input_commands()[info.param.command].name + "_" +
                                            bad_tensors()[info.param.input].file);
                         });

class OutputSweep : public Sweep, public ::testing::WithParamInterface<cell> {};

TEST_P(OutputSweep, OneLineNamingTheFolderAndNothingWritten) {
  const auto& command = output_commands()[GetParam().command];
  const auto& output = bad_outputs()[GetParam().input];
  const bool writes_a_file =
      command.name != "run" && command.name != "backend_convert" && command.name != "deploy";
  std::string folder = substitute(output.folder, work_, "");
  if (output.folder == "{read_only}") {
    std::string why;
    const auto dir = read_only_folder(why);
    if (dir.empty()) RETARGET_SKIP_WITHOUT_MOUNT(why);
    folder = dir.string();
  }
  std::vector<std::string> args;
  for (auto a : command.args) {
    for (auto at = a.find("{out}"); at != std::string::npos; at = a.find("{out}"))
      a.replace(at, 5, folder);
    args.push_back(a);
  }
  if (output.folder_is_made && !writes_a_file) {  // it makes the folder, with its parents
    expect_taken(args, "");
    EXPECT_TRUE(fs::is_directory(folder)) << folder;
    record(output.name, command.name, "(made)");
    return;
  }
  const auto named = fs::path(folder).filename().string();
  const auto line = expect_refused(args, "", output.expect, named);
  record(output.name, command.name, line);
}

INSTANTIATE_TEST_SUITE_P(Commands, OutputSweep,
                         ::testing::ValuesIn(cells(output_commands().size(), bad_outputs().size())),
                         [](const auto& info) {
                           return test_name(output_commands()[info.param.command].name + "_" +
                                            bad_outputs()[info.param.input].name);
                         });

// -- deploy's configs ---------------------------------------------------------------------------

const std::vector<bad_input>& bad_configs() {
  static const std::vector<bad_input> all = {
      {"config missing", "nothing.json", "config file .*nothing\\.json does not exist"},
      {"config empty", "empty.json", "empty\\.json:1:1: invalid JSON \\(incomplete JSON\\)"},
      {"config a folder", "folder.json", "config file .*folder\\.json is a folder, not a file"},
      {"config not JSON", "text.json", "text\\.json:1:1: invalid JSON \\(syntax error\\)"},
      {"config cut short", "truncated.json", "truncated\\.json:1:\\d+: invalid JSON"},
  };
  return all;
}

class ConfigSweep : public Sweep, public ::testing::WithParamInterface<std::size_t> {};

TEST_P(ConfigSweep, OneLineNamingTheFileAndTheProblem) {
  const auto& config = bad_configs()[GetParam()];
  const auto line = expect_refused(
      {"deploy", "{in}", "--model", "srcnn", "--skip-unavailable", "--work-dir", "{dir}/deployed"},
      (work_ / config.file).string(), config.expect, config.file);
  record(config.name, "deploy", line);
}

INSTANTIATE_TEST_SUITE_P(Deploy, ConfigSweep,
                         ::testing::Range<std::size_t>(0, bad_configs().size()),
                         [](const auto& info) {
                           return test_name(bad_configs()[info.param].file);
                         });

// -- a real full disk -------------------------------------------------------------------------

// Fills the filesystem of `dir` to `left` bytes from full.
void fill(const fs::path& dir, std::uint64_t left) {
  struct statvfs s {};
  ASSERT_EQ(::statvfs(dir.c_str(), &s), 0);
  const std::uint64_t free = static_cast<std::uint64_t>(s.f_bavail) * s.f_frsize;
  ASSERT_GT(free, left);
  std::ofstream(dir / "filler", std::ios::binary) << std::string(free - left, '\0');
}

TEST_F(Sweep, NoSpaceLeftKeepsThePreviousFilesAndLeavesNoTemporaryOne) {
  std::string why;
  const auto full = work_ / "full";
  if (!small_filesystem(full, 1 << 20, why)) RETARGET_SKIP_WITHOUT_MOUNT(why);
  auto big = good_model(4096);  // 768 KiB of weights
  rx::save(big, work_ / "big.onnx");

  // What was there before: a converted model and a deploy.
  ASSERT_EQ(run_tool({"convert", (work_ / "good.onnx").string(), "--backend", "opencv_dnn", "-o",
                      (full / "out.onnx").string()},
                     logs_)
                .status,
            0);
  const auto deployed = run_tool(
      {"deploy",
       RETARGET_SOURCE_DIR "/configs/super-resolution/super-resolution_onnxruntime_static.json",
       "--model", "srcnn", "--skip-unavailable", "--work-dir", (full / "deployed").string()},
      logs_);
  ASSERT_EQ(deployed.status, 0) << deployed.err;
  fill(full, 16 << 10);

  const auto line = expect_refused(
      {"convert", "{dir}/big.onnx", "--backend", "opencv_dnn", "-o", "{dir}/full/out.onnx"}, "",
      "cannot write .*full/out\\.onnx.*No space left on device", "out.onnx");
  record("no space left (a real ENOSPC)", "convert", line);

  // A second deploy into the same work dir: its files do not fit; the first deploy's stay.
  const auto again = expect_refused(
      {"deploy",
       RETARGET_SOURCE_DIR "/configs/super-resolution/super-resolution_onnxruntime_static.json",
       "--model", "srcnn", "--skip-unavailable", "--work-dir", "{dir}/full/deployed"},
      "", "No space left on device", "full");
  record("no space left (a real ENOSPC)", "deploy", again);
}

}  // namespace
