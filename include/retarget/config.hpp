// Deploy configs: JSON files with MMDeploy's sections and `_base_` inheritance, and what they
// mean for an export.
#ifndef RETARGET_CONFIG_HPP
#define RETARGET_CONFIG_HPP

#include <retarget/config/deploy_config.hpp>
#include <retarget/config/document.hpp>
#include <retarget/config/export.hpp>
#include <retarget/config/json_file.hpp>
#include <retarget/config/sections.hpp>

#endif  // RETARGET_CONFIG_HPP
