// ONNX's schema registry is a process-wide map that the ONNX library reads without a lock, and
// register_schemas writes to it the first time a graph uses a custom schema. So every use of
// the registry through retarget (schema lookups, the checker, shape inference) holds a
// schema_registry_reader, and register_schemas a schema_registry_writer.
#ifndef RETARGET_IR_DETAIL_SCHEMA_REGISTRY_HPP
#define RETARGET_IR_DETAIL_SCHEMA_REGISTRY_HPP

#include <mutex>
#include <shared_mutex>

namespace retarget::ir::detail {

inline std::shared_mutex& schema_registry_mutex() {
  static std::shared_mutex m;
  return m;
}

// A writer holds the gate while it waits for the lock, and readers pass through the gate
// first: glibc's shared_mutex prefers readers, so without it a writer could wait for ever
// behind threads that emit without pause.
inline std::mutex& schema_registry_gate() {
  static std::mutex m;
  return m;
}

// Exclusive access, for adding schemas.
class schema_registry_writer {
 public:
  schema_registry_writer() : gate_(schema_registry_gate()), lock_(schema_registry_mutex()) {}

 private:
  std::lock_guard<std::mutex> gate_;
  std::unique_lock<std::shared_mutex> lock_;
};

// Shared access to the registry for this scope. Nested readers on one thread take the lock
// once: a second shared lock by the same thread could wait behind a writer that waits for the
// first.
class schema_registry_reader {
 public:
  schema_registry_reader() {
    if (depth() == 0) {
      { const std::lock_guard pass(schema_registry_gate()); }
      schema_registry_mutex().lock_shared();
    }
    ++depth();
  }
  ~schema_registry_reader() {
    if (--depth() == 0) schema_registry_mutex().unlock_shared();
  }
  schema_registry_reader(const schema_registry_reader&) = delete;
  schema_registry_reader& operator=(const schema_registry_reader&) = delete;

  // Whether this thread reads the registry now (and so must not write to it).
  static bool held() noexcept { return depth() > 0; }

 private:
  static int& depth() noexcept {
    thread_local int d = 0;
    return d;
  }
};

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_SCHEMA_REGISTRY_HPP
