// nn modules as torch.nn has them: rewritable modules with parameters.
#ifndef RETARGET_NN_HPP
#define RETARGET_NN_HPP

#include <retarget/nn/modules.hpp>
#include <retarget/nn/parameter.hpp>

#endif  // RETARGET_NN_HPP
