# Generated sources, made on the build machine. tools/gen is configured and
# built as a sub-build with the host's C compiler (MEGACO_HOST_C_COMPILER),
# in native and cross builds alike, so a cross build compiles exactly the
# code a native one does and never runs a target program. Its megaco-gen
# writes the const schema tables (src/schema.h), the DER writer's, the PER
# reader's and writer's, the BER reader's and the version gate's per-type functions into
# BUILD/gen, and checks every offsetof()/sizeof() they contain against asn1c's descriptors (tools/gen/schema_check.c).
# Nothing generated is committed. Included after megaco_core is defined.
include(ExternalProject)
set(MEGACO_HOST_C_COMPILER cc CACHE STRING
  "C compiler for the build machine, for the code generators run during the build")
set(MEGACO_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/gen)
set(MEGACO_GEN_OUTPUTS ${MEGACO_GEN_DIR}/megaco_schema.c ${MEGACO_GEN_DIR}/megaco_schema.h
  ${MEGACO_GEN_DIR}/megaco_der.inc ${MEGACO_GEN_DIR}/megaco_per_read.inc
  ${MEGACO_GEN_DIR}/megaco_per_write.inc ${MEGACO_GEN_DIR}/megaco_ber.inc
  ${MEGACO_GEN_DIR}/megaco_version.inc)
ExternalProject_Add(megaco_host_gen
  SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/tools/gen
  BINARY_DIR ${CMAKE_CURRENT_BINARY_DIR}/host-gen
  CMAKE_ARGS
    -DCMAKE_C_COMPILER=${MEGACO_HOST_C_COMPILER}
    -DCMAKE_BUILD_TYPE=Release
    -DMEGACO_SOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
    -DASN1_GEN_DIR=${ASN1_GEN_DIR}
    -DMEGACO_GEN_DIR=${MEGACO_GEN_DIR}
    -DMEGACO_VERSION_TABLE_DIR=${MEGACO_VERSION_TABLE_DIR}
    -DMEGACO_WERROR=${MEGACO_WERROR}
  BUILD_ALWAYS ON
  DEPENDS megaco_version_table
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${MEGACO_GEN_OUTPUTS})
set_source_files_properties(${MEGACO_GEN_OUTPUTS} PROPERTIES GENERATED TRUE)
target_sources(megaco_core PRIVATE ${MEGACO_GEN_DIR}/megaco_schema.c)
target_include_directories(megaco_core PRIVATE ${MEGACO_GEN_DIR})
add_dependencies(megaco_core megaco_host_gen)
