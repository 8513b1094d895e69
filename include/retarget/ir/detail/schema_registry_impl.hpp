// The definitions of ir/detail/schema_registry.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_SCHEMA_REGISTRY_IMPL_HPP
#define RETARGET_IR_DETAIL_SCHEMA_REGISTRY_IMPL_HPP

#include <mutex>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
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

// How many readers this thread holds.
inline int& schema_registry_depth() noexcept {
  thread_local int d = 0;
  return d;
}

RETARGET_COMPILED_DECL schema_registry_writer::schema_registry_writer() {
  schema_registry_gate().lock();
  try {
    schema_registry_mutex().lock();
  } catch (...) {
    schema_registry_gate().unlock();
    throw;
  }
}

RETARGET_COMPILED_DECL schema_registry_writer::~schema_registry_writer() {
  schema_registry_mutex().unlock();
  schema_registry_gate().unlock();
}

RETARGET_COMPILED_DECL schema_registry_reader::schema_registry_reader() {
  if (schema_registry_depth() == 0) {
    { const std::lock_guard pass(schema_registry_gate()); }
    schema_registry_mutex().lock_shared();
  }
  ++schema_registry_depth();
}

RETARGET_COMPILED_DECL schema_registry_reader::~schema_registry_reader() {
  if (--schema_registry_depth() == 0) schema_registry_mutex().unlock_shared();
}

RETARGET_COMPILED_DECL bool schema_registry_reader::held() noexcept {
  return schema_registry_depth() > 0;
}

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_SCHEMA_REGISTRY_IMPL_HPP
