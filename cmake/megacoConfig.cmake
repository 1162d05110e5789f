# CMake package file for libmegaco: find_package(megaco) gives the imported
# targets megaco::megaco_shared and megaco::megaco_static.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
find_dependency(PkgConfig)
pkg_check_modules(MEGACO_YAML REQUIRED IMPORTED_TARGET yaml-0.1)
include("${CMAKE_CURRENT_LIST_DIR}/megacoTargets.cmake")
