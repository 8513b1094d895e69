// The one owning pointer of ir/: a message held through a pointer, so that a public header
// needs only its declaration (proto_fwd.hpp), and copied deeply, so that its holder (a model,
// a tensor, an attribute) is a value. It holds a message from construction on: null only
// after a move, when it may only be destroyed or assigned to.
//
// Its members that make, copy or delete the message need the message's definition (a
// constructor, a move too, may delete a member): they are defined in deep_ptr_impl.hpp, which the
// definitions of ir/ (detail/*_impl.hpp) include; with retarget::compiled they are instantiated
// once, in the library, for the messages below.
#ifndef RETARGET_IR_DETAIL_DEEP_PTR_HPP
#define RETARGET_IR_DETAIL_DEEP_PTR_HPP

#include <memory>
#include <retarget/ir/detail/proto_fwd.hpp>

namespace retarget::ir::detail {

template <class M>
class deep_ptr {
 public:
  // A default message.
  deep_ptr();
  explicit deep_ptr(const M& m);
  explicit deep_ptr(M&& m);
  deep_ptr(const deep_ptr& other);
  deep_ptr(deep_ptr&& other) noexcept;
  deep_ptr& operator=(const deep_ptr& other);
  deep_ptr& operator=(deep_ptr&& other) noexcept;
  ~deep_ptr();

  // Const reaches the message: a const holder reads it, never changes it.
  M& operator*() noexcept { return *p_; }
  const M& operator*() const noexcept { return *p_; }
  M* operator->() noexcept { return p_.get(); }
  const M* operator->() const noexcept { return p_.get(); }
  M* get() noexcept { return p_.get(); }
  const M* get() const noexcept { return p_.get(); }
  // False only once moved from.
  explicit operator bool() const noexcept { return p_ != nullptr; }

 private:
  std::unique_ptr<M> p_;
};

#if defined(RETARGET_SEPARATE_COMPILATION)
extern template class deep_ptr<onnx::AttributeProto>;
extern template class deep_ptr<onnx::GraphProto>;
extern template class deep_ptr<onnx::ModelProto>;
extern template class deep_ptr<onnx::TensorProto>;
#endif

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_DEEP_PTR_HPP
