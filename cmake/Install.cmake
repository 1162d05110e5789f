# What `cmake --install` puts where, in components a packager can install
# one at a time (`cmake --install build --component megaco-tools`):
#
#   megaco-runtime      libmegaco.so.N (the SONAME link and the library)
#   megaco-development  headers, libmegaco.a, libmegaco.so, megaco.pc,
#                       the CMake package (find_package(megaco 0.1))
#   megaco-tools        megaco-conv, megaco-bench, megaco-dump, their man
#                       pages                            MEGACO_INSTALL_TOOLS
#   megaco-corpus       the test/benchmark corpus (2.6 MB) MEGACO_INSTALL_CORPUS
#   megaco-erlang       megaco-bench.escript (the Erlang side of
#                       megaco-bench --compare-erlang)   MEGACO_INSTALL_ERLANG
#
# The options (CMakeLists.txt) drop a component from a plain `cmake --install` altogether.
# An installed megaco-bench looks for the corpus and the escript in its own
# tree's share/megaco first, then in the source tree it was built from.

set(MEGACO_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/megaco)

install(TARGETS megaco_shared megaco_static EXPORT megacoTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT megaco-runtime
          NAMELINK_COMPONENT megaco-development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT megaco-development)
install(DIRECTORY include/megaco DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT megaco-development)
# Generated: the version macros and the model (cmake/ModelHeader.cmake);
# asn1c's own headers stay in the build tree.
install(FILES ${MEGACO_GENERATED_INCLUDE_DIR}/megaco/version.h ${MEGACO_MODEL_H}
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/megaco COMPONENT megaco-development)

# CMake package: targets, config and version files.
install(EXPORT megacoTargets NAMESPACE megaco:: DESTINATION ${MEGACO_CMAKE_DIR}
  COMPONENT megaco-development)
include(CMakePackageConfigHelpers)
# 0.x: a minor release may break the API (docs/abi.md), so 0.1 accepts only
# 0.1.z; from 1.0 on, SameMajorVersion.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_megaco_compat SameMinorVersion)
else()
  set(_megaco_compat SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/megacoConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${_megaco_compat})
configure_file(cmake/megacoConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/megacoConfig.cmake @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/megacoConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/megacoConfigVersion.cmake
  DESTINATION ${MEGACO_CMAKE_DIR} COMPONENT megaco-development)

# Relocatable .pc: the prefix is found from the file's own place.
file(RELATIVE_PATH MEGACO_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" MEGACO_PC_TO_PREFIX "${MEGACO_PC_TO_PREFIX}")
configure_file(cmake/megaco.pc.in ${CMAKE_CURRENT_BINARY_DIR}/megaco.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/megaco.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
  COMPONENT megaco-development)

if(MEGACO_INSTALL_TOOLS)
  install(TARGETS megaco-conv megaco-bench megaco-dump RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    COMPONENT megaco-tools)
  install(FILES man/megaco-conv.1 man/megaco-bench.1 man/megaco-dump.1
    DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT megaco-tools)
endif()
if(MEGACO_INSTALL_CORPUS)
  install(DIRECTORY corpus/ DESTINATION ${CMAKE_INSTALL_DATADIR}/megaco/corpus
    COMPONENT megaco-corpus)
endif()
if(MEGACO_INSTALL_ERLANG)
  install(PROGRAMS tools/erl/megaco-bench.escript DESTINATION ${CMAKE_INSTALL_DATADIR}/megaco
    COMPONENT megaco-erlang)
endif()
