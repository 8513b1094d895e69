// Two quirks of one backend's list with the same name: the table of refusals and the docs could
// not tell them apart.
// expect: two quirks of a quirk_list share a name
// page-section: Conversion rules
// page-title: Two quirks of one quirk list with the same name
// page-order: 85
// page-snippet:
// | struct clip_inputs : rc::quirk<"clip_bounds"> { /* ... */ };
// | struct clip_computed : rc::quirk<"clip_bounds"> { /* ... */ };
// | template <>
// | struct rc::quirks_for<my_engine> : rc::quirk_list<clip_inputs, clip_computed> {};
// page-meaning:
// | A quirk is declared once, by its name: the table `retarget check --backend` prints, the
// | approximations and the docs' table of what the engine refuses name it. Two quirks with one name
// | would be one quirk written twice.
// page-fix:
// | Give each quirk of the list its own name, or make the two one quirk whose `found` covers both.
#include <retarget/convert/quirk.hpp>

#include "convert_common.hpp"

struct clip_inputs : rc::quirk<"clip_bounds"> {
  static constexpr std::string_view reason = "bounds as inputs";
  static bool found(const rc::quirk_site& s) { return s.op() == "Clip"; }
};
#ifdef RETARGET_COMPILE_FAIL
struct clip_computed : rc::quirk<"clip_bounds"> {
#else
struct clip_computed : rc::quirk<"clip_computed_bounds"> {
#endif
  static constexpr std::string_view reason = "computed bounds";
  static bool found(const rc::quirk_site& s) { return s.op() == "Clip"; }
};

template <>
struct rc::quirks_for<my_engine> : rc::quirk_list<clip_inputs, clip_computed> {};

int main() {
  const auto refused = rc::refused_nodes<my_engine>(rx::model());
  return refused ? 0 : 1;
}
