# Type-specialised UPER encoders, generated at build time: tools/gen/
# uper_write_gen.c compiles src/uper_writer.c, and links the reader (for the
# node graph), the arena and the asn1c objects; it builds the writer's plan
# and writes one C function per SEQUENCE/CHOICE/SEQUENCE OF of the common
# shapes, which uper_writer.c #includes (see its install_generated()).
# Included after the megaco_core target is defined. Cross builds skip it: the
# generator must run on the build machine, and the plan-driven writer works
# without it.
if(NOT CMAKE_CROSSCOMPILING)
  set(UPER_WRITE_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/uper_write_gen_out)
  set(UPER_WRITE_GEN_OUT ${UPER_WRITE_GEN_DIR}/uper_write_gen.inc)
  add_executable(uper_write_gen tools/gen/uper_write_gen.c tools/gen/uper_write_reader.c
    src/arena.c $<TARGET_OBJECTS:megaco_asn1>)
  target_include_directories(uper_write_gen PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/include ${ASN1_GEN_DIR})
  target_compile_definitions(uper_write_gen PRIVATE _DEFAULT_SOURCE)
  target_compile_options(uper_write_gen PRIVATE ${MEGACO_WARNINGS})
  target_link_libraries(uper_write_gen PRIVATE Threads::Threads)
  add_custom_command(OUTPUT ${UPER_WRITE_GEN_OUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${UPER_WRITE_GEN_DIR}
    COMMAND uper_write_gen ${UPER_WRITE_GEN_OUT}
    DEPENDS uper_write_gen
    COMMENT "Generating the specialised UPER encoders"
    VERBATIM)
  add_custom_target(megaco_uper_write_gen DEPENDS ${UPER_WRITE_GEN_OUT})
  add_dependencies(megaco_core megaco_uper_write_gen)
  target_include_directories(megaco_core PRIVATE ${UPER_WRITE_GEN_DIR})
  set_source_files_properties(src/uper_writer.c PROPERTIES
    COMPILE_DEFINITIONS MEGACO_UPER_WRITE_GEN=1
    OBJECT_DEPENDS ${UPER_WRITE_GEN_OUT})
endif()
