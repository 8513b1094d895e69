// Options: described structs read from JSON and from command lines, with generated --help.
// Knows nothing of ONNX; backend params and deploy configs are built on it.
#ifndef RETARGET_OPTIONS_HPP
#define RETARGET_OPTIONS_HPP

#include <retarget/options/command_line.hpp>
#include <retarget/options/field.hpp>
#include <retarget/options/json.hpp>

#endif  // RETARGET_OPTIONS_HPP
