// Parameters of nn modules: a name, dims and a type, and weights shared with every model
// exported from them. They become initializers once per export; weights load from raw
// buffers or from ONNX TensorProto files.
#ifndef RETARGET_NN_PARAMETER_HPP
#define RETARGET_NN_PARAMETER_HPP

#include <cstddef>
#include <filesystem>
#include <memory>
#include <retarget/core/error.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/trace/tensor.hpp>
#include <span>
#include <string>
#include <utility>

namespace retarget::nn {

using trace::tensor;

class parameter {
 public:
  parameter() = default;
  parameter(std::string name, ir::dims_t dims, ir::dtype type = ir::dtype::f32)
      : name_(std::move(name)), dims_(std::move(dims)), type_(type) {
    data_ = std::make_shared<const ir::tensor>(
        ir::tensor::from_raw(type_, dims_, std::vector<std::byte>(bytes(), std::byte{0})));
  }

  const std::string& name() const noexcept { return name_; }
  const ir::dims_t& dims() const noexcept { return dims_; }
  const ir::tensor& data() const noexcept { return *data_; }

  // Takes the values from a buffer of the parameter's size.
  template <class T>
  void assign(std::span<const T> values) {
    data_ = std::make_shared<const ir::tensor>(
        ir::tensor::from_raw(type_, dims_, std::as_bytes(values)));
  }
  // Takes a tensor of the parameter's dims and type.
  void assign(ir::tensor t) {
    if (t.dims() != dims_ || t.type() != type_)
      throw error("retarget: parameter '" + name_ + "' is " + ir::format_dims(dims_) +
                  ", the weights given are " + ir::format_dims(t.dims()));
    data_ = std::make_shared<const ir::tensor>(std::move(t));
  }
  // A file that cannot be read says so with its name; weights that do not fit get it added.
  void load(const std::filesystem::path& path) {
    auto t = ir::read_tensor_file(path);
    try {
      assign(std::move(t));
    } catch (const error& e) {
      throw error(std::string(e.what()) + " (" + path.string() + ")");
    }
  }

  // The parameter in the graph of x's export: an initializer, made at its first use, that
  // shares these weights (a model exported earlier keeps the ones it was given).
  template <class B>
  tensor<B> in(const tensor<B>& x) const {
    return {x.owner(), x.owner().parameter(this, name_, data_)};
  }

 private:
  std::size_t bytes() const {
    return static_cast<std::size_t>(ir::element_count(dims_)) * ir::size_of(type_);
  }
  std::string name_;
  ir::dims_t dims_;
  ir::dtype type_ = ir::dtype::f32;
  // Shared with the models exported from it, never changed in place: assigning replaces it.
  std::shared_ptr<const ir::tensor> data_ = std::make_shared<const ir::tensor>();
};

}  // namespace retarget::nn

#endif  // RETARGET_NN_PARAMETER_HPP
