// The op library: rewritable functions named as in torch, and their symbolics.
#ifndef RETARGET_OPS_HPP
#define RETARGET_OPS_HPP

#include <retarget/ops/functions.hpp>
#include <retarget/symbolics.hpp>

#endif  // RETARGET_OPS_HPP
