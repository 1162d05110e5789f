# Profile-guided optimisation of the library (GCC only).
#
#   MEGACO_PGO=OFF       plain build (the default)
#   MEGACO_PGO=ON        two stages in one `cmake --build`: an instrumented copy
#                        of this project is built in BUILD/pgo-instrumented,
#                        megaco-loop runs every codec over the training corpus
#                        (MEGACO_PGO_CORPUS, default corpus/) to record where
#                        the library's time goes, and this build's library is
#                        then compiled with that profile
#   MEGACO_PGO=GENERATE  the instrumented stage itself (set by ON; not for
#                        direct use)
#
# Only the library's objects (megaco_core, megaco_asn1) are compiled with the
# profile; tools and tests are not. megaco_asn1_lib, the asn1c runtime as
# libmegaco.so links it (without printers and XER), is not: the training
# links megaco_asn1, and only the asn1c engine (MEGACO_ENGINE_ASN1C) runs
# that code. GCC names each profile after the object it
# belongs to; -fprofile-prefix-path makes that name relative to the build
# directory, so the instrumented stage's profile of
# CMakeFiles/megaco_core.dir/src/arena.c.o is the one this build's arena.c.o
# reads. A library object with no profile is a -Wmissing-profile warning, an
# error with MEGACO_WERROR, so a training run that missed objects cannot pass
# for a profiled build. -fprofile-partial-training keeps code the training
# never ran (error paths, mostly) optimised for speed as in a plain build,
# not for size.
#
# Included after every megaco_core source is known (CodecGenerators.cmake,
# Names.cmake): the profile stamp is appended to each source's OBJECT_DEPENDS.

set(MEGACO_PGO OFF CACHE STRING "Profile-guided build of the library: OFF, ON (GCC)")
set_property(CACHE MEGACO_PGO PROPERTY STRINGS OFF ON GENERATE)
set(MEGACO_PGO_CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/corpus CACHE PATH
  "Training messages for MEGACO_PGO=ON: a directory with pretty/ compact/ ber/ per/ aper/")
set(MEGACO_PGO_ROUNDS 20 CACHE STRING "Rounds of each codec over the training corpus")

if(NOT MEGACO_PGO)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "MEGACO_PGO needs GCC (its -fprofile-prefix-path); "
    "CMAKE_C_COMPILER_ID is ${CMAKE_C_COMPILER_ID}")
endif()
if(CMAKE_CROSSCOMPILING)
  message(FATAL_ERROR "MEGACO_PGO trains on the build machine: not for cross builds")
endif()
if(MEGACO_SANITIZE OR MEGACO_TSAN OR MEGACO_FUZZ)
  message(FATAL_ERROR "MEGACO_PGO is for optimised builds, not with sanitizers or fuzzers")
endif()

set(_pgo_libs megaco_core megaco_asn1)
# How a function finds its profile. Sources generated into the build
# directory (asn1c's, the parser and scanners, the codec generators' .inc
# files) lie at different paths in the two stages, and GCC's default profile
# identity of a file-local function hashes its file's path: those functions'
# profiles would not be found. Numbering functions within their translation
# unit instead is stable, since both stages compile the same code. GCC still
# notices the moved path ("source locations ... have changed", a
# -Wcoverage-mismatch that is an error by default), which the use stage
# therefore switches off. Should a function's control flow not match its
# profile (it cannot here: both stages build one tree in one build), the
# same switch hides that too, and GCC then ignores that function's profile:
# slower code, not wrong code.
set(_pgo_identity --param=profile-func-internal-id=1)

if(MEGACO_PGO STREQUAL "GENERATE")
  if(NOT MEGACO_PGO_DIR)
    message(FATAL_ERROR "MEGACO_PGO=GENERATE needs MEGACO_PGO_DIR (set by MEGACO_PGO=ON)")
  endif()
  foreach(t ${_pgo_libs})
    target_compile_options(${t} PRIVATE -fprofile-generate=${MEGACO_PGO_DIR}
      -fprofile-prefix-path=${CMAKE_BINARY_DIR} ${_pgo_identity})
  endforeach()
  # Everything that links instrumented objects needs GCC's profile runtime,
  # including the codec generators defined before this file is read, which
  # add_link_options() would miss.
  string(APPEND CMAKE_EXE_LINKER_FLAGS " -fprofile-generate")
  string(APPEND CMAKE_SHARED_LINKER_FLAGS " -fprofile-generate")
  return()
endif()

if(NOT MEGACO_PGO STREQUAL "ON")
  message(FATAL_ERROR "MEGACO_PGO is OFF, ON or GENERATE, not '${MEGACO_PGO}'")
endif()

include(ExternalProject)
string(TOUPPER "${CMAKE_BUILD_TYPE}" _pgo_bt)
set(_pgo_bin ${CMAKE_BINARY_DIR}/pgo-instrumented)
set(MEGACO_PGO_DIR ${CMAKE_BINARY_DIR}/pgo-profile)
set(_pgo_loop ${_pgo_bin}/tools/megaco-loop${CMAKE_EXECUTABLE_SUFFIX})
set(_pgo_stamp ${CMAKE_BINARY_DIR}/pgo-profile.stamp)
# With make, $(MAKE) lets the stage share this build's jobserver (-j).
if(CMAKE_GENERATOR MATCHES "Make")
  set(_pgo_build_loop $(MAKE) megaco-loop)
else()
  set(_pgo_build_loop ${CMAKE_COMMAND} --build ${_pgo_bin} --target megaco-loop)
endif()

# The instrumented stage: this same source tree with the same compiler, build
# type and flags, so that both stages compile identical code. Built on every
# build (BUILD_ALWAYS) so that it follows source changes; megaco-loop's
# timestamp then says whether the profile is stale.
ExternalProject_Add(megaco_pgo_instrumented
  SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}
  BINARY_DIR ${_pgo_bin}
  CMAKE_CACHE_ARGS
    -DCMAKE_C_COMPILER:FILEPATH=${CMAKE_C_COMPILER}
    -DCMAKE_BUILD_TYPE:STRING=${CMAKE_BUILD_TYPE}
    -DCMAKE_C_FLAGS:STRING=${CMAKE_C_FLAGS}
    -DCMAKE_C_FLAGS_${_pgo_bt}:STRING=${CMAKE_C_FLAGS_${_pgo_bt}}
    -DMEGACO_PGO:STRING=GENERATE
    -DMEGACO_PGO_DIR:PATH=${MEGACO_PGO_DIR}
    -DMEGACO_LEAN_PARSER:BOOL=${MEGACO_LEAN_PARSER}
    -DMEGACO_WERROR:BOOL=OFF
    -DMEGACO_TESTS:BOOL=OFF
  BUILD_COMMAND ${_pgo_build_loop}
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  BUILD_BYPRODUCTS ${_pgo_loop})

file(GLOB _pgo_corpus CONFIGURE_DEPENDS ${MEGACO_PGO_CORPUS}/*/*)
add_custom_command(OUTPUT ${_pgo_stamp}
  COMMAND ${CMAKE_COMMAND} -DLOOP=${_pgo_loop} -DCORPUS=${MEGACO_PGO_CORPUS}
          -DPROFILE_DIR=${MEGACO_PGO_DIR} -DROUNDS=${MEGACO_PGO_ROUNDS}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/PgoTrain.cmake
  COMMAND ${CMAKE_COMMAND} -E touch ${_pgo_stamp}
  DEPENDS ${_pgo_loop} ${_pgo_corpus} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/PgoTrain.cmake
  COMMENT "Training the profile-guided build over ${MEGACO_PGO_CORPUS}"
  VERBATIM)
add_custom_target(megaco_pgo_profile DEPENDS ${_pgo_stamp})
add_dependencies(megaco_pgo_profile megaco_pgo_instrumented)

foreach(t ${_pgo_libs})
  add_dependencies(${t} megaco_pgo_profile)
  target_compile_options(${t} PRIVATE -fprofile-use=${MEGACO_PGO_DIR}
    -fprofile-prefix-path=${CMAKE_BINARY_DIR} ${_pgo_identity}
    -Wno-coverage-mismatch -fprofile-partial-training)
  # A new profile recompiles every object that reads it.
  get_target_property(_srcs ${t} SOURCES)
  set_property(SOURCE ${_srcs} APPEND PROPERTY OBJECT_DEPENDS ${_pgo_stamp})
endforeach()
# megaco_asn1_lib compiles megaco_asn1's sources, so that source property
# reaches its objects too: without the order, a parallel fresh build asks its
# objects for a stamp whose rule belongs to another target.
if(TARGET megaco_asn1_lib)
  add_dependencies(megaco_asn1_lib megaco_pgo_profile)
endif()
