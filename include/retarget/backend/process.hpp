// Other programs, started one way (posix_spawn, no shell to quote for): run_program runs a
// tool such as an engine builder to its end; worker_process keeps a child alive and speaks to
// it over two pipes, for engines that run out of process.
#ifndef RETARGET_BACKEND_PROCESS_HPP
#define RETARGET_BACKEND_PROCESS_HPP

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <retarget/core/error.hpp>
#include <string>
#include <vector>

extern char** environ;

namespace retarget::backend {

namespace detail {

// posix_spawnp with the given file actions; throws with the program's name when it cannot.
inline pid_t spawn(const std::vector<std::string>& argv,
                   const posix_spawn_file_actions_t* actions) {
  if (argv.empty()) throw error("retarget: no program to start");
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  if (const int rc = ::posix_spawnp(&pid, args[0], actions, nullptr, args.data(), environ); rc != 0)
    throw error("retarget: cannot start " + argv[0] + ": " + std::strerror(rc));
  return pid;
}

}  // namespace detail

// Runs argv[0] (looked up on PATH) with the given arguments and waits for it; its stderr goes
// to `stderr_to` when given (so that a failure can be reported with what it said), else to
// the caller's. Returns its exit status (128 + the signal if one ended it).
inline int run_program(const std::vector<std::string>& argv, const std::string& stderr_to = {}) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stderr_to.empty())
    posix_spawn_file_actions_addopen(&actions, 2, stderr_to.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  pid_t pid = -1;
  try {
    pid = detail::spawn(argv, &actions);
  } catch (...) {
    posix_spawn_file_actions_destroy(&actions);
    throw;
  }
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw error("retarget: lost " + argv[0] + ": " + std::strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A child that stays alive across requests, spoken to over its stdin and stdout.
class worker_process {
 public:
  // Starts argv[0] (looked up on PATH) with its stdin and stdout on pipes; stderr goes to
  // `log` so that a failure can be reported with what the worker said.
  worker_process(const std::vector<std::string>& argv, const std::string& log) {
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0)
      throw error(std::string("retarget: cannot make a pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    to_ = to_child[1];
    from_ = from_child[0];
    try {
      pid_ = detail::spawn(argv, &actions);
    } catch (...) {
      posix_spawn_file_actions_destroy(&actions);
      ::close(to_child[0]);
      ::close(from_child[1]);
      close_pipes();
      throw;
    }
    posix_spawn_file_actions_destroy(&actions);
    ::close(to_child[0]);  // the child's ends
    ::close(from_child[1]);
  }
  worker_process(const worker_process&) = delete;
  worker_process& operator=(const worker_process&) = delete;
  ~worker_process() {
    close_pipes();  // the worker ends when its stdin closes
    if (pid_ > 0) {
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }

  void write(const void* data, std::size_t size) {
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
      const auto n = ::write(to_, p, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw error("retarget: the worker process stopped reading");
      p += n;
      size -= static_cast<std::size_t>(n);
    }
  }
  void write_u32(std::uint32_t v) { write(&v, 4); }  // little-endian hosts only, as ONNX's raw data
  void write_bytes(const std::string& s) {
    write_u32(static_cast<std::uint32_t>(s.size()));
    write(s.data(), s.size());
  }

  // False at the end of the stream (the worker exited).
  bool read(void* data, std::size_t size) {
    auto* p = static_cast<char*>(data);
    while (size > 0) {
      const auto n = ::read(from_, p, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      p += n;
      size -= static_cast<std::size_t>(n);
    }
    return true;
  }
  bool read_u32(std::uint32_t& v) { return read(&v, 4); }
  bool read_bytes(std::string& s) {
    std::uint32_t n = 0;
    if (!read_u32(n)) return false;
    s.resize(n);
    return read(s.data(), n);
  }

 private:
  void close_pipes() {
    if (to_ >= 0) ::close(to_);
    if (from_ >= 0) ::close(from_);
    to_ = from_ = -1;
  }

  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
};

}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_PROCESS_HPP
