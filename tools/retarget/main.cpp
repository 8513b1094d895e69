// The retarget command-line tool: the library's command line (retarget/tool.hpp) over the
// engines retarget ships, deploying the zoo's models.
#include <retarget/backends.hpp>
#include <retarget/tool.hpp>

#include "zoo/zoo.hpp"

int main(int argc, char** argv) {
  return retarget::tool::main<retarget::backends::shipped, zoo::entries>(argc, argv);
}
