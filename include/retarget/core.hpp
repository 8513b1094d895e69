// retarget's compile-time core: backends, rewritable functions, module and symbolic rewrites,
// the rewrite context, introspection and string-keyed tables. Knows nothing of ONNX.
#ifndef RETARGET_CORE_HPP
#define RETARGET_CORE_HPP

#include <retarget/core/backend.hpp>
#include <retarget/core/call.hpp>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/core/introspection.hpp>
#include <retarget/core/module.hpp>
#include <retarget/core/rewritable.hpp>
#include <retarget/core/rewrite_context.hpp>
#include <retarget/core/rewrite_env.hpp>
#include <retarget/core/rewrite_log.hpp>
#include <retarget/core/string_table.hpp>
#include <retarget/core/symbolic.hpp>

#endif  // RETARGET_CORE_HPP
