# The library targets built from the megaco_core and megaco_asn1 objects.
#
# megaco_shared: libmegaco.so; hidden visibility keeps everything but the
#   MEGACO_API functions out of its dynamic symbol table.
# megaco_static: libmegaco.a, as installed. Visibility means nothing to an
#   archive: each object's hidden symbols (asn1c's ber_decode, asn_DEF_*,
#   our own cross-file helpers) would still be global to the static linker
#   and clash, silently, with any other asn1c-generated library linked into
#   the same program (the first definition wins). So the objects are first
#   linked into one relocatable object (`ld -r`), whose hidden symbols
#   objcopy then makes local: what is left global is the megaco_* API and
#   the undefined references to libc, libpthread and libyaml. The archive
#   holds that one object, without the sections that no exported function
#   reaches (--gc-keep-exported: the API is what the garbage collection
#   starts from), as libmegaco.so leaves them out. The tools come from CMakeFindBinUtils (a cross
#   toolchain's prefixed ld and objcopy). docs/abi.md explains the choice.
# megaco_internal: the same objects with their symbols as compiled, for the
#   tests and tools that call internal functions or the asn1c runtime
#   (XER printer, internal codecs). Not installed.

foreach(tool CMAKE_LINKER CMAKE_OBJCOPY)
  if(NOT ${tool})
    message(FATAL_ERROR "${tool} not found: libmegaco.a is one relocatable object "
      "whose hidden symbols objcopy makes local (cmake/StaticLocal.cmake)")
  endif()
endforeach()

add_library(megaco_shared SHARED $<TARGET_OBJECTS:megaco_core> $<TARGET_OBJECTS:megaco_asn1_lib>)
# SONAME policy (docs/abi.md): before 1.0 a minor release may change the ABI,
# so the SONAME carries major.minor (libmegaco.so.0.1); from 1.0 the major.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(MEGACO_SOVERSION 0.${PROJECT_VERSION_MINOR})
else()
  set(MEGACO_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()
set_target_properties(megaco_shared PROPERTIES OUTPUT_NAME megaco C_VISIBILITY_PRESET hidden
  VERSION ${PROJECT_VERSION} SOVERSION ${MEGACO_SOVERSION})
# Never unloaded by dlclose(): a thread holding a spare arena block
# (src/arena.c) runs the library's pthread key destructor when it exits.
target_link_options(megaco_shared PRIVATE "LINKER:-z,nodelete")
# What no exported function reaches goes: the asn1c runtime's printers and
# XER codecs, which megaco_asn1_lib's descriptors do not name (CMakeLists.txt).
target_link_options(megaco_shared PRIVATE "LINKER:--gc-sections")
# Relative relocations packed as DT_RELR (a bitmap of the words to adjust)
# where the linker can: the descriptors and tables in a PIC library hold
# about 6000 pointers, each an R_*_RELATIVE entry of 24 bytes (x86_64) in
# .rela.dyn, 145 KB, or a few KB packed (docs/footprint.md). The loader
# must know DT_RELR (glibc 2.36, musl 1.2.4); GNU ld then records the
# dependency (GLIBC_ABI_DT_RELR), so an older glibc refuses to load the
# library rather than running it unrelocated.
# GNU ld takes the option on every target but packs only on some (x86_64,
# not armhf or s390x in binutils 2.40), warning that it is ignored elsewhere.
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_LINK_OPTIONS "LINKER:-z,pack-relative-relocs")
check_c_source_compiles("int main(void) { return 0; }" MEGACO_LINKER_PACKS_RELOCS
  FAIL_REGEX "ignored|unknown|unrecognized")
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(MEGACO_LINKER_PACKS_RELOCS)
  target_link_options(megaco_shared PRIVATE "LINKER:-z,pack-relative-relocs")
endif()
add_library(megaco::megaco ALIAS megaco_shared)

# The -r link needs GNU ld's --gc-keep-exported. With clang, CMAKE_LINKER is
# ld.lld, which has no such option: GNU ld (ld.bfd) does that step when it is
# installed, and otherwise the archive keeps every section (bigger, same API).
set(_megaco_ld_r ${CMAKE_LINKER})
set(_megaco_ld_gc --gc-sections --gc-keep-exported)
execute_process(COMMAND ${CMAKE_LINKER} --help OUTPUT_VARIABLE _ld_help ERROR_QUIET)
if(NOT _ld_help MATCHES "gc-keep-exported")
  get_filename_component(_ld_dir ${CMAKE_LINKER} DIRECTORY)
  find_program(MEGACO_GNU_LD NAMES ld.bfd HINTS ${_ld_dir})
  if(MEGACO_GNU_LD)
    set(_megaco_ld_r ${MEGACO_GNU_LD})
  else()
    set(_megaco_ld_gc "")
    message(STATUS "libmegaco.a keeps unreached sections: ${CMAKE_LINKER} has no --gc-keep-exported")
  endif()
endif()

set(_megaco_relocatable ${CMAKE_CURRENT_BINARY_DIR}/megaco_static_obj/megaco.o)
add_custom_command(OUTPUT ${_megaco_relocatable}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/megaco_static_obj
  COMMAND ${_megaco_ld_r} -r ${_megaco_ld_gc} -o ${_megaco_relocatable}.all
          $<TARGET_OBJECTS:megaco_core> $<TARGET_OBJECTS:megaco_asn1_lib>
  COMMAND ${CMAKE_OBJCOPY} --localize-hidden ${_megaco_relocatable}.all ${_megaco_relocatable}
  COMMAND ${CMAKE_COMMAND} -E remove ${_megaco_relocatable}.all
  DEPENDS $<TARGET_OBJECTS:megaco_core> $<TARGET_OBJECTS:megaco_asn1_lib>
  COMMENT "Linking libmegaco's objects into one, hidden symbols made local"
  COMMAND_EXPAND_LISTS VERBATIM)
set_source_files_properties(${_megaco_relocatable} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
add_library(megaco_static STATIC ${_megaco_relocatable})
# A file dependency on another target's objects does not order the targets.
add_dependencies(megaco_static megaco_core megaco_asn1_lib)
set_target_properties(megaco_static PROPERTIES OUTPUT_NAME megaco LINKER_LANGUAGE C)

add_library(megaco_internal STATIC $<TARGET_OBJECTS:megaco_core> $<TARGET_OBJECTS:megaco_asn1>)
target_include_directories(megaco_internal PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/src ${ASN1_GEN_DIR})
# Its users see the model under asn1c's names, as the library's sources do
# (cmake/ModelHeader.cmake).
target_compile_definitions(megaco_internal PUBLIC MEGACO_ASN1C_NAMES)

foreach(lk shared static internal)
  target_include_directories(megaco_${lk} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${MEGACO_GENERATED_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(megaco_${lk} PRIVATE Threads::Threads)
endforeach()
