# Type-specialised codecs, generated at build time. Each generator
# (tools/gen/NAME.c) is compiled with the codec source it specialises and the
# asn1c objects, builds that codec's run-time tables exactly as the library
# will, and writes one C function per type into BUILD/NAME_out/INC. The codec
# #includes INC when DEFINE=1 and uses it only if its own tables, at run time,
# have the fingerprint the generator saw; otherwise it runs its table walk.
# Nothing generated is committed. Cross builds skip the generators (they must
# run on the build machine); the table walks work without them.
# Included after the megaco_core target is defined.

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

# UPER decoders: one function per node of the reader's graph (uper_reader.c).
megaco_codec_generator(uper_read_gen uper_read_gen.inc src/uper_reader.c
  MEGACO_UPER_READ_GEN "Generating the specialised UPER decoders" src/arena.c)
# UPER encoders: one function per SEQUENCE/CHOICE/SEQUENCE OF of the common
# shapes (uper_writer.c); the writer's plan is built from the reader's graph.
megaco_codec_generator(uper_write_gen uper_write_gen.inc src/uper_writer.c
  MEGACO_UPER_WRITE_GEN "Generating the specialised UPER encoders"
  tools/gen/uper_write_reader.c src/arena.c)
# DER writers: one function per constructed type (der_writer.c).
megaco_codec_generator(der_gen der_writer_gen.inc src/der_writer.c
  MEGACO_DER_GEN "Generating the specialised DER writers")
# BER readers: one function per SEQUENCE/list/CHOICE for the definite-length
# one-octet-tag forms; the table walk takes the rest (ber_reader.c).
megaco_codec_generator(ber_read_gen ber_read_gen.inc src/ber_reader.c
  MEGACO_BER_READ_GEN "Generating the specialised BER readers" src/arena.c)
