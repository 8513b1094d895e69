// ONNX's schema registry is a process-wide map that the ONNX library reads without a lock, and
// register_schemas writes to it the first time a graph uses a custom schema. So every use of
// the registry through retarget (schema lookups, the checker, shape inference) holds a
// schema_registry_reader, and register_schemas a schema_registry_writer. The locks are defined
// with the rest of ir (schema_registry_impl.hpp), so this header needs no <mutex>.
#ifndef RETARGET_IR_DETAIL_SCHEMA_REGISTRY_HPP
#define RETARGET_IR_DETAIL_SCHEMA_REGISTRY_HPP

#include <retarget/core/config.hpp>

namespace retarget::ir::detail {

// Exclusive access, for adding schemas.
class schema_registry_writer {
 public:
  RETARGET_COMPILED_DECL schema_registry_writer();
  RETARGET_COMPILED_DECL ~schema_registry_writer();
  schema_registry_writer(const schema_registry_writer&) = delete;
  schema_registry_writer& operator=(const schema_registry_writer&) = delete;
};

// Shared access to the registry for this scope. Nested readers on one thread take the lock
// once: a second shared lock by the same thread could wait behind a writer that waits for the
// first.
class schema_registry_reader {
 public:
  RETARGET_COMPILED_DECL schema_registry_reader();
  RETARGET_COMPILED_DECL ~schema_registry_reader();
  schema_registry_reader(const schema_registry_reader&) = delete;
  schema_registry_reader& operator=(const schema_registry_reader&) = delete;

  // Whether this thread reads the registry now (and so must not write to it).
  RETARGET_COMPILED_DECL static bool held() noexcept;
};

}  // namespace retarget::ir::detail

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/schema_registry_impl.hpp>
#endif

#endif  // RETARGET_IR_DETAIL_SCHEMA_REGISTRY_HPP
