// Runs a model on OpenCV's DNN module in a forked child process, so that a crash or a hang
// (60 s) of the engine is a failure of that model, not of the program that asked: the parent
// never calls OpenCV. The outputs come back through TensorProto files in a scratch folder.
// Used by the conformance harness (tests/conformance) and the differential generator
// (tests/differential).
//
//   const auto error = retarget_test::run_in_child(model_file, inputs, {"y"}, scratch / "run");
//   if (error.empty()) auto y = retarget::ir::read_tensor_file(scratch / "run" / "output_0.pb");
#ifndef RETARGET_TESTS_SUPPORT_OPENCV_CHILD_HPP
#define RETARGET_TESTS_SUPPORT_OPENCV_CHILD_HPP

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget_test {

// An error in one line (OpenCV's run over several, the node named on the second), without the
// scratch folder's name, which changes with every run.
inline std::string one_line(std::string_view text, const std::filesystem::path& scratch) {
  std::string line;
  for (const char c : text) {
    if (c != '\n' || (!line.empty() && line.back() != ' ')) line += c == '\n' ? ' ' : c;
  }
  // OpenCV's own boilerplate, repeated in each message, goes too.
  const std::pair<std::string, std::string> shorter[] = {
      {scratch.string(), "SCRATCH"},
      {"OpenCV(4.6.0) ", ""},
      {"./modules/dnn/", ""},
      {"error: (-2:Unspecified error) in function 'handleNode' > ", ""}};
  for (const auto& [from, to] : shorter)
    for (auto at = line.find(from); at != std::string::npos; at = line.find(from, at))
      line.replace(at, from.size(), to);
  if (line.size() > 400) line = line.substr(0, 397) + "...";
  return line;
}

// Runs the model on OpenCV in a child process; output K (of output_names) comes back as
// dir/output_K.pb. Returns the error (empty when it ran).
inline std::string run_in_child(const std::filesystem::path& model,
                                const retarget::backend::tensor_map& inputs,
                                const std::vector<std::string>& output_names,
                                const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    alarm(60);
    std::ofstream error_file(dir / "error.txt");
    try {
      retarget::backends::opencv_dnn_wrapper net(model);
      const auto outputs = net.run(inputs);
      for (std::size_t i = 0; i < output_names.size(); ++i)
        if (const auto it = outputs.find(output_names[i]); it != outputs.end())
          retarget::ir::write_tensor_file(dir / ("output_" + std::to_string(i) + ".pb"),
                                          it->second);
      std::_Exit(0);
    } catch (const std::exception& e) {
      error_file << e.what();
      error_file.close();
      std::_Exit(3);
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status))
    return WTERMSIG(status) == SIGALRM
               ? std::string("no answer in 60 s")
               : "crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
  if (WEXITSTATUS(status) != 0) {
    std::ifstream in(dir / "error.txt");
    std::stringstream text;
    text << in.rdbuf();
    return one_line(text.str().empty() ? "failed" : text.str(), dir.parent_path());
  }
  return {};
}

}  // namespace retarget_test

#endif  // RETARGET_TESTS_SUPPORT_OPENCV_CHILD_HPP
