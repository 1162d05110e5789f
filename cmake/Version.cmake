# megaco/version.h from project(VERSION): the compile-time version macros,
# generated into BUILD/include so the installed header and the library agree.
# Minor and patch numbers must fit 8 bits for MEGACO_VERSION_NUM.
foreach(part MINOR PATCH)
  if(PROJECT_VERSION_${part} GREATER 255)
    message(FATAL_ERROR "PROJECT_VERSION_${part} ${PROJECT_VERSION_${part}} does not fit MEGACO_VERSION_NUM")
  endif()
endforeach()
string(REGEX REPLACE "^v" "" MEGACO_MODEL_ASN1C "${ASN1C_VERSION}")
if(MEGACO_YAML)
  set(MEGACO_HAVE_YAML 1)
else()
  set(MEGACO_HAVE_YAML 0)
endif()
set(MEGACO_GENERATED_INCLUDE_DIR ${CMAKE_CURRENT_BINARY_DIR}/include)
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.h.in
  ${MEGACO_GENERATED_INCLUDE_DIR}/megaco/version.h @ONLY)
# Every target of this build sees it as the installed tree does: beside the
# other public headers.
include_directories(${MEGACO_GENERATED_INCLUDE_DIR})
