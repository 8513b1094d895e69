// A file mapped into memory read-only, whole: the bytes of a model's external data, read by
// the pages the system brings in when they are touched instead of copied into memory up front.
// The mapping lives as long as the last shared_ptr to it. A file replaced by rename while
// mapped keeps its old bytes here (the old inode lives on until unmapped); a file truncated in
// place under a mapping would not, which is why retarget's saves always write a new file.
//
// Each live mapping has a key, written into the external data entries of the tensors whose
// bytes it holds ("retarget.mapping"), so that a copy of such a tensor's proto still finds its
// bytes while the mapping lives (find_mapping), and finds none after.
#ifndef RETARGET_IR_DETAIL_MAPPED_FILE_HPP
#define RETARGET_IR_DETAIL_MAPPED_FILE_HPP

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// <sys/mman.h> defines MAP_TYPE, which ONNX's parser.h names as an enumerator; unused here.
#undef MAP_TYPE

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>

namespace retarget::ir::detail {

class mapped_file {
 public:
  // The whole file mapped, or nullptr when it cannot be opened, measured or mapped (errno
  // says why); the caller names the file and the tensor in its error.
  static std::shared_ptr<const mapped_file> open(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return nullptr;
    struct stat st {};
    void* at = nullptr;
    const bool sized = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    const auto size = sized ? static_cast<std::size_t>(st.st_size) : 0;
    if (sized && size > 0) at = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);  // the mapping holds the file on its own
    if (!sized || at == MAP_FAILED) return nullptr;
    std::shared_ptr<const mapped_file> file(new mapped_file(at, size));
    auto& r = registry();
    const std::lock_guard lock(r.mutex);
    r.live[file->key_] = file;
    return file;
  }

  // The mapping with this key, while it lives; nullptr otherwise.
  static std::shared_ptr<const mapped_file> find(const std::string& key) {
    auto& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto it = r.live.find(key);
    return it == r.live.end() ? nullptr : it->second.lock();
  }

  // The key its tensors name it by: the process, the time and a count, so that a key read from
  // a file (a proto written without save()) names no mapping of this process.
  const std::string& key() const noexcept { return key_; }

  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file() {
    {
      auto& r = registry();
      const std::lock_guard lock(r.mutex);
      r.live.erase(key_);
    }
    if (at_) ::munmap(at_, size_);
  }

  std::span<const std::byte> bytes() const noexcept {
    return {static_cast<const std::byte*>(at_), size_};
  }

  // Gives the pages that `part` of the mapping covers whole back to the system: the process no
  // longer holds them, and reads them again from the file if they are touched (the mapping is
  // read-only and private, so they come back as they were). For one pass over gigabytes, as a
  // save makes: the process does not end up holding the whole file.
  void release(std::span<const std::byte> part) const noexcept {
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(at_);
    auto lo = reinterpret_cast<std::uintptr_t>(part.data());
    auto hi = lo + part.size();
    if (!at_ || page == 0 || lo < begin || hi > begin + size_) return;  // not this mapping's
    lo = (lo + page - 1) / page * page;
    hi = hi / page * page;
    if (lo < hi) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
  }

 private:
  mapped_file(void* at, std::size_t size)
      : at_(size ? at : nullptr), size_(size), key_(new_key()) {}

  struct live_mappings {
    std::mutex mutex;
    std::unordered_map<std::string, std::weak_ptr<const mapped_file>> live;
  };
  static live_mappings& registry() {
    static live_mappings r;
    return r;
  }
  static std::string new_key() {
    static std::atomic<std::uint64_t> count{0};
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return std::to_string(::getpid()) + "-" +
           std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()) + "-" +
           std::to_string(count++);
  }

  void* at_;
  std::size_t size_;
  std::string key_;
};

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_MAPPED_FILE_HPP
