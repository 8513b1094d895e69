// Deploy configs: JSON files with MMDeploy's sections and `_base_` inheritance.
#ifndef RETARGET_CONFIG_HPP
#define RETARGET_CONFIG_HPP

#include <retarget/config/deploy_config.hpp>
#include <retarget/config/json_file.hpp>

#endif  // RETARGET_CONFIG_HPP
