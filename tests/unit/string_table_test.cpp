// String-keyed tables materialized from compile-time mappings.
#include <gtest/gtest.h>

#include <retarget/core/string_table.hpp>
#include <string>

namespace {

int conv_arity() { return 2; }
int relu_arity() { return 1; }
int concat_arity() { return -1; }

constexpr auto layers = retarget::make_string_table<
    retarget::entry<"Relu", &relu_arity>, retarget::entry<"Conv", &conv_arity>,
    retarget::entry<"Concat", &concat_arity>, retarget::entry<"ConvTranspose", &conv_arity>>();

static_assert(layers.size() == 4);
static_assert(layers.contains("Conv") && !layers.contains("conv"));
static_assert(layers.names()[0] == "Concat");  // sorted, so lookup is a binary search

TEST(StringTable, FindsEveryEntryByName) {
  EXPECT_EQ(layers.at("Conv")(), 2);
  EXPECT_EQ(layers.at("Relu")(), 1);
  EXPECT_EQ(layers.at("Concat")(), -1);
  EXPECT_EQ(layers.find("Sigmoid"), nullptr);
}

TEST(StringTable, UnknownNameListsTheClosestNames) {
  try {
    layers.at("Cnv", "layer type");
    FAIL() << "no error for an unknown name";
  } catch (const retarget::error& e) {
    EXPECT_EQ(std::string(e.what()),
              "retarget: unknown layer type 'Cnv' (closest: Conv, Concat, Relu)");
  }
}

TEST(StringTable, ClosestIgnoresCase) {
  EXPECT_EQ(layers.closest("convtranspose", 1), std::vector<std::string_view>{"ConvTranspose"});
}

struct mapping_a {
  static constexpr std::string_view name = "A";
  static constexpr int value = 1;
};
struct mapping_b {
  static constexpr std::string_view name = "B";
  static constexpr int value = 2;
};

TEST(StringTable, MaterializesFromATypeList) {
  constexpr auto& t = retarget::string_table_from_v<boost::mp11::mp_list<mapping_b, mapping_a>>;
  static_assert(t.at("A") == 1 && t.at("B") == 2);
  EXPECT_EQ(t.names()[1], "B");
}

}  // namespace
