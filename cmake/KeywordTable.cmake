# The text scanner's keyword hash table: tools/gen/keyword_table_gen.c builds
# it from src/keywords.def with the hash of src/text_kw_hash.h and writes
# text_kw_table.c, a const table compiled into the library (read-only data,
# nothing built at run time). The generator is compiled with the build
# machine's compiler (MEGACO_HOST_C_COMPILER, cmake/VersionTable.cmake) and
# run at build time, in a cross build too: the table's words are values
# assembled in little-endian order on any host. Included after megaco_core.
set(_kt ${CMAKE_CURRENT_BINARY_DIR}/keyword_table)
set(_src ${CMAKE_CURRENT_SOURCE_DIR}/src)
add_custom_command(OUTPUT ${_kt}/keyword_table_gen
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_kt}
  COMMAND ${MEGACO_HOST_C_COMPILER} -std=c11 -O1 -I${_src} -o ${_kt}/keyword_table_gen
          ${CMAKE_CURRENT_SOURCE_DIR}/tools/gen/keyword_table_gen.c
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tools/gen/keyword_table_gen.c ${_src}/text_kw_hash.h
          ${_src}/keywords.def
  COMMENT "Building the keyword table generator (build machine)" VERBATIM)
add_custom_command(OUTPUT ${_kt}/text_kw_table.c
  COMMAND ${_kt}/keyword_table_gen ${_kt}/text_kw_table.c
  DEPENDS ${_kt}/keyword_table_gen
  COMMENT "Generating the keyword hash table from src/keywords.def" VERBATIM)
target_sources(megaco_core PRIVATE ${_kt}/text_kw_table.c)
