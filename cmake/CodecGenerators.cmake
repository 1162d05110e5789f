# Generated sources, made on the build machine. tools/gen is configured and
# built as a sub-build with the host's C compiler (MEGACO_HOST_C_COMPILER),
# in native and cross builds alike, so a cross build compiles exactly the
# code a native one does and never runs a target program. Its megaco-gen
# writes the const schema tables (src/schema.h), the DER writer's and the
# PER reader's and writer's per-type functions into BUILD/gen, and checks every offsetof()/sizeof()
# they contain against asn1c's descriptors (tools/gen/schema_check.c).
# Nothing generated is committed. Included after megaco_core is defined.
include(ExternalProject)
set(MEGACO_HOST_C_COMPILER cc CACHE STRING
  "C compiler for the build machine, for the code generators run during the build")
set(MEGACO_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/gen)
set(MEGACO_GEN_OUTPUTS ${MEGACO_GEN_DIR}/megaco_schema.c ${MEGACO_GEN_DIR}/megaco_schema.h
  ${MEGACO_GEN_DIR}/megaco_der.inc ${MEGACO_GEN_DIR}/megaco_per_read.inc
  ${MEGACO_GEN_DIR}/megaco_per_write.inc)
ExternalProject_Add(megaco_host_gen
  SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/tools/gen
  BINARY_DIR ${CMAKE_CURRENT_BINARY_DIR}/host-gen
  CMAKE_ARGS
    -DCMAKE_C_COMPILER=${MEGACO_HOST_C_COMPILER}
    -DCMAKE_BUILD_TYPE=Release
    -DMEGACO_SOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
    -DASN1_GEN_DIR=${ASN1_GEN_DIR}
    -DMEGACO_GEN_DIR=${MEGACO_GEN_DIR}
    -DMEGACO_WERROR=${MEGACO_WERROR}
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${MEGACO_GEN_OUTPUTS})
set_source_files_properties(${MEGACO_GEN_OUTPUTS} PROPERTIES GENERATED TRUE)
target_sources(megaco_core PRIVATE ${MEGACO_GEN_DIR}/megaco_schema.c)
target_include_directories(megaco_core PRIVATE ${MEGACO_GEN_DIR})
add_dependencies(megaco_core megaco_host_gen)

# Type-specialised codecs still built by the old mechanism (compiled for the
# target, skipped when cross-compiling) until each is ported onto the schema.

# megaco_codec_generator(NAME INC CODEC_SOURCE DEFINE COMMENT [EXTRA_SOURCES...])
function(megaco_codec_generator name inc codec define comment)
  if(CMAKE_CROSSCOMPILING)
    return()
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name}_out)
  add_executable(${name} tools/gen/${name}.c ${ARGN} $<TARGET_OBJECTS:megaco_asn1>)
  target_include_directories(${name} PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/include ${ASN1_GEN_DIR})
  target_compile_definitions(${name} PRIVATE MEGACO_BUILDING _DEFAULT_SOURCE)
  target_compile_options(${name} PRIVATE ${MEGACO_WARNINGS})
  target_link_libraries(${name} PRIVATE Threads::Threads)
  add_custom_command(OUTPUT ${dir}/${inc}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${name} ${dir}/${inc}
    DEPENDS ${name}
    COMMENT "${comment}"
    VERBATIM)
  add_custom_target(megaco_${name} DEPENDS ${dir}/${inc})
  add_dependencies(megaco_core megaco_${name})
  target_include_directories(megaco_core PRIVATE ${dir})
  set_source_files_properties(${codec} PROPERTIES
    COMPILE_DEFINITIONS ${define}=1
    OBJECT_DEPENDS ${dir}/${inc})
endfunction()

# BER readers: one function per SEQUENCE/list/CHOICE for the definite-length
# one-octet-tag forms; the table walk takes the rest (ber_reader.c).
megaco_codec_generator(ber_read_gen ber_read_gen.inc src/ber_reader.c
  MEGACO_BER_READ_GEN "Generating the specialised BER readers" src/arena.c)
