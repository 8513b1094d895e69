// One call whose arguments carry two different backends.
// expect: static assertion failed.*arguments of a call carry different backends
// page-section: Calls
// page-title: Arguments carrying two different backends
// page-order: 30
// page-snippet:
// | const value<bk::tensorrt> a{1};
// | const value<bk::onnxruntime> b{2};   // both carry a backend through dispatch_traits
// | add(a, b);
// page-meaning:
// | A call takes its backend from its arguments; here they disagree, so there is no one backend to
// | select rewrites for. With traced tensors: two tensors of exports for different backends met in
// | one op.
// page-fix:
// | Keep the values of one export together. To call for a backend explicitly, use
// | `retarget::call<B>(fn, args...)`.
#include "common.hpp"

template <class B>
struct value {
  int v;
};
template <class B>
struct retarget::dispatch_traits<value<B>> {
  using backend = B;
};

inline constexpr struct add_fn : retarget::rewritable<add_fn, "add"> {
  int origin(auto a, auto b) const { return a.v + b.v; }
} add;

int main() {
  const value<bk::tensorrt> a{1};
#ifdef RETARGET_COMPILE_FAIL
  const value<bk::onnxruntime> b{2};
#else
  const value<bk::tensorrt> b{2};
#endif
  return add(a, b) == 3 ? 0 : 1;
}
