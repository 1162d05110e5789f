# The package registry's data (src/registry.c, docs/transcoding.md).
#
# data/packages.yaml becomes const C tables at build time: tools/registry_tables.py
# runs on the build machine (python3, no libyaml) and writes
# BUILD/generated/registry_builtin.c, compiled into the library. Nothing is
# parsed at run time.
#
# MEGACO_YAML (default ON) links libyaml for megaco_registry_load_yaml() and
# megaco_registry_load_yaml_buffer(), which read vendor packages in the same
# format; with it OFF they do not exist (MEGACO_HAVE_YAML is 0 in
# megaco/version.h), nothing links libyaml, and vendor packages are added
# with megaco_registry_add_*(). (The option is declared in CMakeLists.txt,
# since megaco/version.h says which it is.)

find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(MEGACO_PACKAGES_YAML ${CMAKE_CURRENT_SOURCE_DIR}/data/packages.yaml)
set(MEGACO_REGISTRY_C ${CMAKE_CURRENT_BINARY_DIR}/generated/registry_builtin.c)
add_custom_command(OUTPUT ${MEGACO_REGISTRY_C}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/generated
  COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/tools/registry_tables.py
          ${MEGACO_PACKAGES_YAML} ${MEGACO_REGISTRY_C}
  DEPENDS ${MEGACO_PACKAGES_YAML} ${CMAKE_CURRENT_SOURCE_DIR}/tools/registry_tables.py
  COMMENT "Generating the built-in package registry from data/packages.yaml"
  VERBATIM)
target_sources(megaco_core PRIVATE ${MEGACO_REGISTRY_C})

if(MEGACO_YAML)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(MEGACO_LIBYAML REQUIRED IMPORTED_TARGET yaml-0.1)
  target_link_libraries(megaco_core PRIVATE PkgConfig::MEGACO_LIBYAML)
  foreach(lk shared static internal)
    target_link_libraries(megaco_${lk} PRIVATE PkgConfig::MEGACO_LIBYAML)
  endforeach()
  set(MEGACO_PC_REQUIRES_PRIVATE "yaml-0.1")
else()
  set(MEGACO_PC_REQUIRES_PRIVATE "")
endif()
