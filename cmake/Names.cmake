set(MEGACO_YAML ON)
# Transcoding data: embeds data/packages.yaml into the library as a byte array
# (src/registry.c parses it with libyaml on first use) and links libyaml,
# which megaco_registry_load_yaml() needs at run time anyway.
find_package(PkgConfig REQUIRED)
pkg_check_modules(MEGACO_LIBYAML REQUIRED IMPORTED_TARGET yaml-0.1)

set(MEGACO_PACKAGES_YAML ${CMAKE_CURRENT_SOURCE_DIR}/data/packages.yaml)
set(MEGACO_PACKAGES_C ${CMAKE_CURRENT_BINARY_DIR}/generated/packages_yaml.c)
add_custom_command(OUTPUT ${MEGACO_PACKAGES_C}
  COMMAND ${CMAKE_COMMAND} -DIN=${MEGACO_PACKAGES_YAML} -DOUT=${MEGACO_PACKAGES_C}
          -DSYMBOL=megaco_packages_yaml -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/EmbedFile.cmake
  DEPENDS ${MEGACO_PACKAGES_YAML} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/EmbedFile.cmake
  COMMENT "Embedding data/packages.yaml"
  VERBATIM)
target_sources(megaco_core PRIVATE ${MEGACO_PACKAGES_C})
target_link_libraries(megaco_core PRIVATE PkgConfig::MEGACO_LIBYAML)
foreach(lk shared static internal)
  target_link_libraries(megaco_${lk} PRIVATE PkgConfig::MEGACO_LIBYAML)
endforeach()
