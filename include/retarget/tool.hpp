// The retarget command-line tool as a library: tool::main, over the shipped engines and the
// user's own (tool/command_line.hpp), and each command's options (tool/commands.hpp).
#ifndef RETARGET_TOOL_HPP
#define RETARGET_TOOL_HPP

#include <retarget/tool/command_line.hpp>
#include <retarget/tool/commands.hpp>

#endif  // RETARGET_TOOL_HPP
