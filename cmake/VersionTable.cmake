# The one version table: tools/gen/version_table_gen.c reads the H.248.1 ASN.1
# modules of versions 1, 2 and 3 (asn1/) and writes version_table.h, the first
# version of every element (MEGACO_SINCE_<Type>_<member>, which the text codec
# uses, and megaco_version_table[], which tools/gen puts into the const schema
# for the binary version gate, src/version_check.c). The generator is compiled with the build machine's
# compiler (MEGACO_HOST_C_COMPILER) and run at build time, in a cross build
# too (it reads and writes only text: nothing of the target is needed).
# Included after the megaco_core target is defined.
# The same build-machine compiler as tools/gen's sub-build (CodecGenerators.cmake).
set(MEGACO_HOST_C_COMPILER cc CACHE STRING
  "C compiler for the build machine, for the code generators run during the build")
set(MEGACO_VERSION_TABLE_DIR ${CMAKE_CURRENT_BINARY_DIR}/version_table)
set(_vt ${MEGACO_VERSION_TABLE_DIR})
set(_asn ${CMAKE_CURRENT_SOURCE_DIR}/asn1/MEDIA-GATEWAY-CONTROL)
add_custom_command(OUTPUT ${_vt}/version_table_gen
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_vt}
  COMMAND ${MEGACO_HOST_C_COMPILER} -O1 -I${CMAKE_CURRENT_SOURCE_DIR}/tools -o ${_vt}/version_table_gen
          ${CMAKE_CURRENT_SOURCE_DIR}/tools/gen/version_table_gen.c ${CMAKE_CURRENT_SOURCE_DIR}/tools/read_file.c
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tools/gen/version_table_gen.c ${CMAKE_CURRENT_SOURCE_DIR}/tools/read_file.c
  COMMENT "Building the version table generator (build machine)" VERBATIM)
add_custom_command(OUTPUT ${_vt}/version_table.h
  COMMAND ${_vt}/version_table_gen ${_asn}-v1.asn ${_asn}-v2.asn ${_asn}-v3.asn
          ${_vt}/version_table.h
  DEPENDS ${_vt}/version_table_gen ${_asn}-v1.asn ${_asn}-v2.asn ${_asn}-v3.asn
  COMMENT "Generating the version table from asn1/*.asn" VERBATIM)
add_custom_target(megaco_version_table DEPENDS ${_vt}/version_table.h)
add_dependencies(megaco_core megaco_version_table)
target_include_directories(megaco_core PRIVATE ${_vt})
