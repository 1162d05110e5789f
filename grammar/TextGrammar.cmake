# Text decoder: the bison parser and two flex scanners from one .l source.
# grammar/megaco.l is generated twice: reentrant (text_re_*, the default) and
# flex's classic global-state scanner (text_nr_*, serialised by a mutex in
# src/text_decode.c). Generated C goes to the build tree only.
# Sets TEXT_GEN_DIR and TEXT_GEN_SOURCES (add the latter to the library).
find_package(BISON 3.6 REQUIRED)
find_package(FLEX 2.6 REQUIRED)
set(TEXT_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/grammar)
set(_g ${CMAKE_CURRENT_LIST_DIR})
file(MAKE_DIRECTORY ${TEXT_GEN_DIR})
# The parse loop comes from grammar/lean-lalr.m4, a skeleton written against
# bison 3.8's internals (it says what it leaves out of yacc.c's loop); any
# other bison, or MEGACO_LEAN_PARSER=OFF (for bison's YYDEBUG tracing), uses
# yacc.c itself, which parses the same.
# TEXT_PARSE_LOOP names the one used (megaco-bench prints it).
set(_skeleton)
set(_skeleton_unused)
set(TEXT_PARSE_LOOP "yacc.c")
if(MEGACO_LEAN_PARSER AND BISON_VERSION VERSION_GREATER_EQUAL 3.8 AND BISON_VERSION VERSION_LESS 3.9)
  set(_skeleton --skeleton=${_g}/lean-lalr.m4)
  set(_skeleton_unused ${TEXT_GEN_DIR}/megaco_parse.c.yacc-unused) # yacc.c's own parser file
  set(TEXT_PARSE_LOOP "grammar/lean-lalr.m4")
endif()
add_custom_command(OUTPUT ${TEXT_GEN_DIR}/megaco_parse.c ${TEXT_GEN_DIR}/megaco_parse.h
  BYPRODUCTS ${_skeleton_unused}
  COMMAND ${BISON_EXECUTABLE} -Wall -Werror ${_skeleton} --defines=${TEXT_GEN_DIR}/megaco_parse.h
          -o ${TEXT_GEN_DIR}/megaco_parse.c ${_g}/megaco.y
  DEPENDS ${_g}/megaco.y ${_g}/lean-lalr.m4 COMMENT "bison grammar/megaco.y")
# Both scanners in one step, since grammar/ShareTables.cmake then leaves
# one copy of their identical tables (in the reentrant one).
add_custom_command(OUTPUT ${TEXT_GEN_DIR}/text_scan_re.c ${TEXT_GEN_DIR}/text_scan_nr.c
  COMMAND ${FLEX_EXECUTABLE} -Cf --reentrant --bison-bridge -P text_re_
          -o ${TEXT_GEN_DIR}/text_scan_re.c ${_g}/megaco.l
  COMMAND ${FLEX_EXECUTABLE} -Cf -P text_nr_ -o ${TEXT_GEN_DIR}/text_scan_nr.c ${_g}/megaco.l
  COMMAND ${CMAKE_COMMAND} -DRE=${TEXT_GEN_DIR}/text_scan_re.c -DNR=${TEXT_GEN_DIR}/text_scan_nr.c
          -P ${_g}/ShareTables.cmake
  DEPENDS ${_g}/megaco.l ${_g}/ShareTables.cmake
  COMMENT "flex grammar/megaco.l (reentrant and global state, one copy of the tables)")
# A target of its own, so the header exists before any library source that includes it.
add_custom_target(megaco_text_grammar DEPENDS ${TEXT_GEN_DIR}/megaco_parse.h
  ${TEXT_GEN_DIR}/megaco_parse.c ${TEXT_GEN_DIR}/text_scan_re.c ${TEXT_GEN_DIR}/text_scan_nr.c)
set(TEXT_GEN_SOURCES ${TEXT_GEN_DIR}/megaco_parse.c ${TEXT_GEN_DIR}/text_scan_re.c
  ${TEXT_GEN_DIR}/text_scan_nr.c
  src/text_build.c src/text_keyword_lookup.c)
set_source_files_properties(${TEXT_GEN_DIR}/text_scan_re.c PROPERTIES
  COMPILE_DEFINITIONS MEGACO_SCAN_REENTRANT)
# flex's skeleton: unused helpers, int/size_t mixing. Only the scanners get these.
set_source_files_properties(${TEXT_GEN_DIR}/text_scan_re.c ${TEXT_GEN_DIR}/text_scan_nr.c
  PROPERTIES COMPILE_OPTIONS "-Wno-unused-function;-Wno-sign-compare;-Wno-missing-prototypes;-Wno-unused-parameter")
# bison keeps a variable it only writes when the grammar has no error recovery.
set_source_files_properties(${TEXT_GEN_DIR}/megaco_parse.c PROPERTIES
  COMPILE_OPTIONS "-Wno-unused-but-set-variable")
set_source_files_properties(${TEXT_GEN_DIR}/megaco_parse.c ${TEXT_GEN_DIR}/megaco_parse.h
  ${TEXT_GEN_DIR}/text_scan_re.c ${TEXT_GEN_DIR}/text_scan_nr.c PROPERTIES GENERATED TRUE)
