// The hand-written tables of enumerated attribute values and of attributes that became inputs,
// against the ONNX library's schemas (opsets 1 to 17): OpSchema has no lists of values, but the
// attributes' descriptions name them, and the attributes and inputs are there to compare.
#include <gtest/gtest.h>
#include <onnx/defs/schema.h>

#include <algorithm>
#include <cctype>
#include <retarget/ir.hpp>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace {

namespace rx = retarget::ir;

const onnx::OpSchema* schema_at(std::string_view op, int version) {
  const auto* s = onnx::OpSchemaRegistry::Schema(std::string(op), version, "");
  return s && !s->Deprecated() ? s : nullptr;
}

const onnx::OpSchema::Attribute* attribute_of(const onnx::OpSchema* s, std::string_view name) {
  if (!s) return nullptr;
  const auto it = s->attributes().find(std::string(name));
  return it == s->attributes().end() ? nullptr : &it->second;
}

std::vector<std::string> words(std::string_view values) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start < values.size();) {
    const auto end = std::min(values.find(' ', start), values.size());
    out.emplace_back(values.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Whether `word` stands in `text` as a word of its own ("floor", not "round_prefer_floor").
bool names_word(const std::string& text, const std::string& word) {
  const auto part = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !part(text[at - 1]);
    const bool ends = at + word.size() == text.size() || !part(text[at + word.size()]);
    if (starts && ends) return true;
  }
  return false;
}

constexpr int newest = 17;  // the newest opset of ONNX 1.12

// Calls check(opset) for each opset of a row, up to the newest, with the row in the trace.
template <class Row, class F>
void each_opset(const Row& row, F check) {
  for (int v = row.since; v <= std::min(row.until, newest); ++v) {
    SCOPED_TRACE(std::string(row.op) + "." + std::string(row.attribute) + " at opset " +
                 std::to_string(v));
    check(v);
  }
}

TEST(OnnxAttributeValues, EveryRowIsAStringAttributeWhoseDescriptionNamesItsValues) {
  for (const auto& row : rx::onnx_enumerated_attributes()) {
    each_opset(row, [&](int v) {
      const auto* s = schema_at(row.op, v);
      const auto* a = attribute_of(s, row.attribute);
      ASSERT_NE(a, nullptr);
      EXPECT_TRUE(a->type == onnx::AttributeProto::STRING ||
                  a->type == onnx::AttributeProto::STRINGS);
      // RNN, GRU and LSTM list their activation functions in the op's description.
      const std::string text = row.attribute == "activations" ? s->doc() : a->description;
      for (const auto& value : words(row.values)) EXPECT_TRUE(names_word(text, value)) << value;
      // ... and none of the attribute's values of other opsets (Resize-13 dropped
      // tf_half_pixel_for_nn), but for Upsample's "linear (including bilinear, ...)".
      for (const auto& other : rx::onnx_enumerated_attributes())
        if (other.op == row.op && other.attribute == row.attribute)
          for (const auto& value : words(other.values))
            if (!rx::onnx_attribute_value_valid(row.op, row.attribute, value, v) &&
                !(row.op == "Upsample" && value == "bilinear")) {
              EXPECT_FALSE(names_word(text, value)) << value;
            }
      // The schema's default is one of the values (GRU-1 spells its own default 'foward').
      if (a->default_value.has_s() && !(row.op == "GRU" && v < 3)) {
        EXPECT_TRUE(rx::onnx_attribute_value_valid(row.op, row.attribute, a->default_value.s(), v))
            << a->default_value.s();
      }
    });
  }
}

TEST(OnnxAttributeValues, TheRowsCoverEveryOpsetWhereTheAttributeExists) {
  std::set<std::pair<std::string_view, std::string_view>> enumerated;
  for (const auto& row : rx::onnx_enumerated_attributes())
    enumerated.emplace(row.op, row.attribute);
  for (const auto& [op, attribute] : enumerated)
    for (int v = 1; v <= newest; ++v) {
      const auto* s = onnx::OpSchemaRegistry::Schema(std::string(op), v, "");
      if (s && s->Deprecated()) continue;  // Upsample from opset 10: refused before its values
      int rows = 0;
      for (const auto& row : rx::onnx_enumerated_attributes())
        rows += row.op == op && row.attribute == attribute && row.since <= v && v <= row.until;
      EXPECT_EQ(rows, attribute_of(s, attribute) ? 1 : 0)
          << op << "." << attribute << " at opset " << v;
    }
}

// Each STRING or STRINGS attribute of the default domain is enumerated, or free text.
TEST(OnnxAttributeValues, EveryStringAttributeIsEnumeratedOrFreeText) {
  const std::set<std::string> free_text = {
      "Constant.value_string",
      "Constant.value_strings",
      "Einsum.equation",
      "StringNormalizer.locale",
      "StringNormalizer.stopwords",
      "TfIdfVectorizer.pool_strings",
      "Cast.to",  // opset 1 to 5 only: a TensorProto::DataType name; not enumerated here
  };
  std::set<std::string> enumerated;
  for (const auto& row : rx::onnx_enumerated_attributes())
    enumerated.insert(std::string(row.op) + "." + std::string(row.attribute));
  for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    if (!s.domain().empty() || s.since_version() > newest) continue;
    for (const auto& [name, a] : s.attributes()) {
      if (a.type != onnx::AttributeProto::STRING && a.type != onnx::AttributeProto::STRINGS)
        continue;
      const auto key = s.Name() + "." + name;
      EXPECT_TRUE(enumerated.count(key) || free_text.count(key)) << key;
    }
  }
}

TEST(OnnxAttributeValues, EveryMovedAttributeIsThatInputAndNoAttribute) {
  for (const auto& row : rx::onnx_attributes_made_inputs()) {
    each_opset(row, [&](int v) {
      const auto* s = schema_at(row.op, v);
      if (!s) return;  // deprecated there (Upsample from opset 10)
      EXPECT_EQ(attribute_of(s, row.attribute), nullptr);
      ASSERT_GT(static_cast<int>(s->inputs().size()), row.input);
      EXPECT_EQ(s->inputs()[static_cast<std::size_t>(row.input)].GetName(), row.input_name);
    });
    // The row starts where the input does: the opset before it has no such input.
    const auto* before = schema_at(row.op, row.since - 1);
    if (before && row.since > 1 && static_cast<int>(before->inputs().size()) > row.input) {
      EXPECT_NE(before->inputs()[static_cast<std::size_t>(row.input)].GetName(), row.input_name)
          << row.op << "." << row.attribute;
    }
  }
}

}  // namespace
