// The members of deep_ptr (deep_ptr.hpp) that need the message's definition: included by the
// definitions of ir/, inline header-only, instantiated once into retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_DEEP_PTR_IMPL_HPP
#define RETARGET_IR_DETAIL_DEEP_PTR_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <memory>
#include <retarget/ir/detail/deep_ptr.hpp>
#include <utility>

namespace retarget::ir::detail {

template <class M>
deep_ptr<M>::deep_ptr() : p_(std::make_unique<M>()) {}

template <class M>
deep_ptr<M>::deep_ptr(const M& m) : p_(std::make_unique<M>(m)) {}

template <class M>
deep_ptr<M>::deep_ptr(M&& m) : p_(std::make_unique<M>(std::move(m))) {}

// A moved-from one copies as moved-from: copying never reads a message that is not there.
template <class M>
deep_ptr<M>::deep_ptr(const deep_ptr& other)
    : p_(other.p_ ? std::make_unique<M>(*other.p_) : nullptr) {}

// The copy is made before the old message goes, so a failed copy leaves this one as it was.
template <class M>
deep_ptr<M>& deep_ptr<M>::operator=(const deep_ptr& other) {
  if (this != &other) p_ = other.p_ ? std::make_unique<M>(*other.p_) : nullptr;
  return *this;
}

template <class M>
deep_ptr<M>::deep_ptr(deep_ptr&& other) noexcept = default;

template <class M>
deep_ptr<M>& deep_ptr<M>::operator=(deep_ptr&& other) noexcept = default;

template <class M>
deep_ptr<M>::~deep_ptr() = default;

#if defined(RETARGET_SEPARATE_COMPILATION)
template class deep_ptr<onnx::AttributeProto>;
template class deep_ptr<onnx::GraphProto>;
template class deep_ptr<onnx::ModelProto>;
template class deep_ptr<onnx::TensorProto>;
#endif

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_DEEP_PTR_IMPL_HPP
