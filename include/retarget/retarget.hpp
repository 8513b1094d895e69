// Everything retarget offers. Layers arrive one folder at a time; core/ is the base.
#ifndef RETARGET_RETARGET_HPP
#define RETARGET_RETARGET_HPP

#include <retarget/core.hpp>
#include <retarget/ir.hpp>
#include <retarget/trace.hpp>
#include <retarget/backend.hpp>
#include <retarget/config.hpp>

#endif  // RETARGET_RETARGET_HPP
