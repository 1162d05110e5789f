# ctest script (cmake -P): the shared library exports exactly the documented
# API. Every dynamic symbol it defines must start with megaco_, and the set of
# exported functions must equal the set declared MEGACO_API in the public
# headers megaco.h includes: nothing internal leaks (hidden visibility is the
# default), and nothing documented is missing from the build.
#
#   cmake -DNM=nm -DLIB=libmegaco.so -DHEADERS=include/megaco \
#         [-DGENERATED=BUILD/include/megaco] -P test_exports.cmake
cmake_minimum_required(VERSION 3.20) # script mode: today's policies
foreach(v NM LIB HEADERS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "test_exports: -D${v}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${NM} -D --defined-only ${LIB}
  OUTPUT_VARIABLE nm_out RESULT_VARIABLE rc ERROR_VARIABLE nm_err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}: ${nm_err}")
endif()

string(REPLACE "\n" ";" lines "${nm_out}")
set(exported "")
set(bad "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) ([^ @]+)")
    set(type "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    if(type MATCHES "^[a-tx-z]$")
      # Local binding (nm's lower case, except weak u/v/w): not exported. Coverage
      # instrumentation (MEGACO_FUZZ) leaves such __start___sancov_* here.
    elseif(NOT name MATCHES "^megaco_")
      list(APPEND bad "${type} ${name}")
    else()
      list(APPEND exported "${name}")
    endif()
  endif()
endforeach()

# The documented API is what the umbrella header megaco.h brings in: a header
# still being written (not yet included there) is not part of it.
file(READ ${HEADERS}/megaco.h umbrella)
string(REGEX MATCHALL "#include \"megaco/[a-z_0-9]+\\.h\"" incs "${umbrella}")
set(headers ${HEADERS}/megaco.h)
foreach(i IN LISTS incs)
  string(REGEX REPLACE ".*\"megaco/([a-z_0-9]+\\.h)\"" "\\1" f "${i}")
  if(DEFINED GENERATED AND EXISTS ${GENERATED}/${f}) # megaco/version.h
    list(APPEND headers ${GENERATED}/${f})
  else()
    list(APPEND headers ${HEADERS}/${f})
  endif()
endforeach()
set(declared "")
foreach(h IN LISTS headers)
  file(READ ${h} text)
  # Declarations of a feature this build lacks (MEGACO_HAVE_YAML 0) are not
  # expected to be exported; such blocks hold no nested #if.
  if(DEFINED HAVE_YAML AND NOT HAVE_YAML)
    while(TRUE)
      string(FIND "${text}" "#if MEGACO_HAVE_YAML" at)
      if(at EQUAL -1)
        break()
      endif()
      string(SUBSTRING "${text}" ${at} -1 rest)
      string(FIND "${rest}" "#endif" end)
      string(SUBSTRING "${text}" 0 ${at} before)
      math(EXPR end "${end} + 6")
      string(SUBSTRING "${rest}" ${end} -1 after)
      set(text "${before}${after}")
    endwhile()
  endif()
  string(REGEX REPLACE "#[ \t]*define[ \t]+MEGACO_API[^\n]*" "" text "${text}")
  # MEGACO_API <return type> [*]name(  -- the name is the last word before "(".
  string(REGEX MATCHALL "MEGACO_API[^;(]*[ *]([a-z_0-9]+)[ \t]*\\(" decls "${text}")
  foreach(d IN LISTS decls)
    string(REGEX REPLACE ".*[ *]([a-z_0-9]+)[ \t]*\\($" "\\1" name "${d}")
    list(APPEND declared ${name})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES exported)
list(REMOVE_DUPLICATES declared)
list(SORT exported)
list(SORT declared)

set(undocumented ${exported})
list(REMOVE_ITEM undocumented ${declared})
set(missing ${declared})
list(REMOVE_ITEM missing ${exported})
list(LENGTH exported n_exp)
list(LENGTH declared n_decl)
message(STATUS "${n_exp} symbols exported, ${n_decl} functions declared MEGACO_API in: ${headers}")

set(failed FALSE)
if(bad)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(SEND_ERROR "exported symbols without the megaco_ prefix:\n  ${bad}")
  set(failed TRUE)
endif()
if(undocumented)
  string(REPLACE ";" "\n  " undocumented "${undocumented}")
  message(SEND_ERROR "exported but not declared MEGACO_API in a public header:\n  ${undocumented}")
  set(failed TRUE)
endif()
if(missing)
  string(REPLACE ";" "\n  " missing "${missing}")
  message(SEND_ERROR "declared MEGACO_API but not exported (not built, or hidden):\n  ${missing}")
  set(failed TRUE)
endif()
if(n_exp LESS 20)
  message(SEND_ERROR "only ${n_exp} symbols exported: is this the right library?")
  set(failed TRUE)
endif()
if(failed)
  message(FATAL_ERROR "export check failed for ${LIB}")
endif()
