# megaco/model.h, the model as applications include it (docs/abi.md):
# tools/model_header.py derives it from asn1c's headers for the module, with
# every name prefixed megaco_ and nothing but the data types, so that it and
# an application's own asn1c headers can share a file and it declares nothing
# the library does not export. The same step writes model_layout.c, compiled
# into the library: compile-time assertions, for the target's compiler, that
# each prefixed type has the size and alignment of asn1c's and each enum
# constant its value.
#
# The library's sources keep asn1c's names (MEGACO_ASN1C_NAMES tells
# megaco/message.h so); so do the tools and tests built on megaco_internal.

find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(MEGACO_MODEL_H ${MEGACO_GENERATED_INCLUDE_DIR}/megaco/model.h)
set(MEGACO_MODEL_CHECK ${CMAKE_CURRENT_BINARY_DIR}/generated/model_layout.c)
add_custom_command(OUTPUT ${MEGACO_MODEL_H} ${MEGACO_MODEL_CHECK}
  COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/tools/model_header.py
          ${ASN1_GEN_DIR} MegacoMessage.h ${MEGACO_MODEL_H} ${MEGACO_MODEL_CHECK}
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tools/model_header.py ${ASN1_GEN_DIR}/.stamp
  COMMENT "Generating megaco/model.h from asn1c's headers"
  VERBATIM)
add_custom_target(megaco_model_header DEPENDS ${MEGACO_MODEL_H} ${MEGACO_MODEL_CHECK})
foreach(t megaco_asn1 megaco_asn1_lib)
  target_sources(${t} PRIVATE ${MEGACO_MODEL_CHECK})
  add_dependencies(${t} megaco_model_header)
endforeach()
add_dependencies(megaco_core megaco_model_header)
target_compile_definitions(megaco_core PRIVATE MEGACO_ASN1C_NAMES)
