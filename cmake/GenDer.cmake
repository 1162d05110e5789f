# Type-specialised DER writers, generated at build time: tools/gen/der_gen.c
# compiles src/der_writer.c with the asn1c objects, compiles the writer's
# per-member tables and writes one C function per constructed type, which
# der_writer.c #includes and uses only when its run-time tables have the
# same fingerprint. Included after the megaco_core target is defined. Cross
# builds skip it (the generator must run on the build machine); the table
# walk in der_writer.c works without it.
if(NOT CMAKE_CROSSCOMPILING)
  set(DER_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/der_gen_out)
  set(DER_GEN_OUT ${DER_GEN_DIR}/der_writer_gen.inc)
  add_executable(der_gen tools/gen/der_gen.c $<TARGET_OBJECTS:megaco_asn1>)
  target_include_directories(der_gen PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/include ${ASN1_GEN_DIR})
  target_compile_definitions(der_gen PRIVATE _DEFAULT_SOURCE)
  target_compile_options(der_gen PRIVATE ${MEGACO_WARNINGS})
  target_link_libraries(der_gen PRIVATE Threads::Threads)
  add_custom_command(OUTPUT ${DER_GEN_OUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${DER_GEN_DIR}
    COMMAND der_gen ${DER_GEN_OUT}
    DEPENDS der_gen
    COMMENT "Generating the specialised DER writers"
    VERBATIM)
  add_custom_target(megaco_der_gen DEPENDS ${DER_GEN_OUT})
  add_dependencies(megaco_core megaco_der_gen)
  target_include_directories(megaco_core PRIVATE ${DER_GEN_DIR})
  set_source_files_properties(src/der_writer.c PROPERTIES
    COMPILE_DEFINITIONS MEGACO_DER_GEN=1
    OBJECT_DEPENDS ${DER_GEN_OUT})
endif()
