// The row types of the generated schema table (schema_table.hpp).
#ifndef RETARGET_IR_DETAIL_SCHEMA_ENTRY_HPP
#define RETARGET_IR_DETAIL_SCHEMA_ENTRY_HPP

#include <cstddef>
#include <string_view>

namespace retarget::ir::detail {

struct attribute_entry {
  std::string_view name;
  int type;  // an AttributeProto::AttributeType
};

struct op_entry {
  std::string_view domain;  // "" is ai.onnx
  std::string_view name;
  int min_inputs, max_inputs, min_outputs, max_outputs;
  int first_version, last_version;  // the first and the last since_version of the op
  std::size_t first_attribute, attribute_count;
};

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_SCHEMA_ENTRY_HPP
