// What every engine's package is built on: the manager requirements, the manager list looked
// up by name, processes, the console commands generated from managers' params, and engines
// compared with one another. The engines themselves are in retarget/backends.hpp.
#ifndef RETARGET_BACKEND_HPP
#define RETARGET_BACKEND_HPP

#include <retarget/backend/compare.hpp>
#include <retarget/backend/console.hpp>
#include <retarget/backend/manager.hpp>
#include <retarget/backend/pipeline.hpp>
#include <retarget/backend/process.hpp>

#endif  // RETARGET_BACKEND_HPP
