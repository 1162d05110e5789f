# Type-specialised UPER decoders, generated at build time: tools/gen/
# uper_read_gen.c compiles src/uper_reader.c with the asn1c objects, builds
# the reader's node graph and writes one C function per node, which
# uper_reader.c #includes (see its install_generated()). Included after the
# megaco_core target is defined. Cross builds skip it: the generator must
# run on the build machine, and the table-driven reader works without it.
if(NOT CMAKE_CROSSCOMPILING)
  set(UPER_READ_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/uper_read_gen_out)
  set(UPER_READ_GEN_OUT ${UPER_READ_GEN_DIR}/uper_read_gen.inc)
  add_executable(uper_read_gen tools/gen/uper_read_gen.c src/arena.c $<TARGET_OBJECTS:megaco_asn1>)
  target_include_directories(uper_read_gen PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/include ${ASN1_GEN_DIR})
  target_compile_definitions(uper_read_gen PRIVATE MEGACO_BUILDING _DEFAULT_SOURCE)
  target_compile_options(uper_read_gen PRIVATE ${MEGACO_WARNINGS})
  target_link_libraries(uper_read_gen PRIVATE Threads::Threads)
  add_custom_command(OUTPUT ${UPER_READ_GEN_OUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${UPER_READ_GEN_DIR}
    COMMAND uper_read_gen ${UPER_READ_GEN_OUT}
    DEPENDS uper_read_gen
    COMMENT "Generating the specialised UPER decoders"
    VERBATIM)
  add_custom_target(megaco_uper_read_gen DEPENDS ${UPER_READ_GEN_OUT})
  add_dependencies(megaco_core megaco_uper_read_gen)
  target_include_directories(megaco_core PRIVATE ${UPER_READ_GEN_DIR})
  set_source_files_properties(src/uper_reader.c PROPERTIES
    COMPILE_DEFINITIONS MEGACO_UPER_READ_GEN=1
    OBJECT_DEPENDS ${UPER_READ_GEN_OUT})
endif()
