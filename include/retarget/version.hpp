// retarget's version: the one place it is written. CMake's project() and the pkg-config file
// read it from here.
#ifndef RETARGET_VERSION_HPP
#define RETARGET_VERSION_HPP

#define RETARGET_VERSION_MAJOR 0
#define RETARGET_VERSION_MINOR 1
#define RETARGET_VERSION_PATCH 0

// "0.1.0"
#define RETARGET_VERSION_STRING "0.1.0"

#endif  // RETARGET_VERSION_HPP
