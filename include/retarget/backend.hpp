// Backend managers: params, availability, conversion and inference wrappers per backend.
#ifndef RETARGET_BACKEND_HPP
#define RETARGET_BACKEND_HPP

#include <retarget/backend/manager.hpp>
#include <retarget/backend/onnxruntime.hpp>
#include <retarget/backend/param.hpp>
#include <retarget/backend/console.hpp>
#include <retarget/backend/tensorrt.hpp>

namespace retarget::backend {
// The managers retarget ships, looked up by name at run time.
using builtin_managers = manager_list<onnxruntime_manager, tensorrt_manager>;
}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_HPP
