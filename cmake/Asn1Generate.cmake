# Runs asn1c on the H.248.1 module into the build tree and patches the runtime's
# allocation and debug hooks. Runs at configure time because asn1c decides the
# file list (one .c per type); the module is a configure dependency, so editing
# it re-runs this step on the next build. Nothing generated is committed.

set(MEGACO_ASN1_HOOKS ${CMAKE_CURRENT_LIST_DIR}/../src/megaco_asn_hooks.h)
find_program(ASN1C_EXECUTABLE asn1c REQUIRED)
execute_process(COMMAND ${ASN1C_EXECUTABLE} -v OUTPUT_VARIABLE _asn1c_v ERROR_VARIABLE _asn1c_v)
string(REGEX MATCH "v[0-9][0-9.]+" ASN1C_VERSION "${_asn1c_v}")

function(megaco_asn1_generate module outdir out_sources)
  set(stamp ${outdir}/.stamp)
  file(SHA256 ${module} module_hash)
  set(want "${module_hash} ${ASN1C_VERSION} patch-8")
  set(have "")
  if(EXISTS ${stamp})
    file(READ ${stamp} have)
  endif()
  if(NOT have STREQUAL want)
    file(REMOVE_RECURSE ${outdir})
    file(MAKE_DIRECTORY ${outdir})
    get_filename_component(modname ${module} NAME)
    configure_file(${module} ${outdir}/${modname} COPYONLY)
    execute_process(
      COMMAND ${ASN1C_EXECUTABLE} -fcompound-names -gen-PER -pdu=MegacoMessage ${modname}
      WORKING_DIRECTORY ${outdir}
      RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "asn1c failed on ${module}:\n${log}")
    endif()
    # Route the runtime's allocation macros to our arena hooks and make
    # ASN_DEBUG a true no-op macro. Stock 0.9.28 defines ASN_DEBUG as an empty
    # *function*, so every debug argument (tag strings, snprintf) is still
    # evaluated: measured as a 4-5x slowdown of BER decode.
    file(READ ${outdir}/asn_internal.h text)
    foreach(pair
        "#define\tCALLOC(nmemb, size)\tcalloc(nmemb, size)|#define\tCALLOC(nmemb, size)\tmegaco_asn_calloc(nmemb, size)"
        "#define\tMALLOC(size)\t\tmalloc(size)|#define\tMALLOC(size)\t\tmegaco_asn_malloc(size)"
        "#define\tREALLOC(oldptr, size)\trealloc(oldptr, size)|#define\tREALLOC(oldptr, size)\tmegaco_asn_realloc(oldptr, size)"
        "#define\tFREEMEM(ptr)\t\tfree(ptr)|#define\tFREEMEM(ptr)\t\tmegaco_asn_free(ptr)")
      string(REPLACE "|" ";" pair "${pair}")
      list(GET pair 0 from)
      list(GET pair 1 to)
      string(FIND "${text}" "${from}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "asn_internal.h from asn1c ${ASN1C_VERSION} lacks '${from}'; update cmake/Asn1Generate.cmake")
      endif()
      string(REPLACE "${from}" "${to}" text "${text}")
    endforeach()
    string(REPLACE "#include \"asn_application.h\"\t/* Application-visible API */"
      "#include \"asn_application.h\"\t/* Application-visible API */\n#include \"megaco_asn_hooks.h\"\t/* libmegaco: arena allocation, ASN_DEBUG off */"
      patched "${text}")
    if(patched STREQUAL text)
      message(FATAL_ERROR "could not insert megaco_asn_hooks.h into asn_internal.h")
    endif()
    file(WRITE ${outdir}/asn_internal.h "${patched}")
    # Undefined behaviour in the 0.9.28 runtime, found by UBSan on our corpus:
    # a uint8_t promoted to int and shifted left by 24 overflows int for
    # octets >= 0x80. Widen before shifting.
    foreach(f per_support.c OCTET_STRING.c)
      file(READ ${outdir}/${f} text)
      string(REPLACE "(buf[0] << 24)" "((uint32_t)buf[0] << 24)" fixed "${text}")
      if(fixed STREQUAL text)
        message(FATAL_ERROR "expected shift not found in ${f}; update cmake/Asn1Generate.cmake")
      endif()
      file(WRITE ${outdir}/${f} "${fixed}")
    endforeach()
    # C99 has snprintf(); defining _BSD_SOURCE for it only makes glibc warn
    # ("_BSD_SOURCE and _SVID_SOURCE are deprecated") in every tool or test
    # that includes one of these headers first.
    file(READ ${outdir}/asn_system.h text)
    string(REPLACE "#ifndef _BSD_SOURCE\n#define _BSD_SOURCE /* for snprintf() on some linux systems  */\n#endif\n" "" fixed "${text}")
    if(fixed STREQUAL text)
      message(FATAL_ERROR "_BSD_SOURCE define not found in asn_system.h; update cmake/Asn1Generate.cmake")
    endif()
    file(WRITE ${outdir}/asn_system.h "${fixed}")
    # asn1c's runtime headers assume asn_application.h came first; the tools
    # and tests include whichever they need. Including it ahead of each
    # header's guard gives every header the order asn_application.h itself
    # sets up.
    file(GLOB gen_headers ${outdir}/*.h)
    foreach(f ${gen_headers})
      get_filename_component(n ${f} NAME)
      if(NOT n MATCHES "^(asn_application|asn_system)\\.h$")
        file(READ ${f} text)
        file(WRITE ${f} "#include \"asn_application.h\" /* libmegaco: compiles on its own */\n${text}")
      endif()
    endforeach()
    # Each type descriptor's printer and XER decoder and encoder (its 4th,
    # 8th and 9th entries) go through MEGACO_ASN1_XER(), which names no
    # function in libmegaco's own copy of the runtime (megaco_asn_hooks.h,
    # MEGACO_ASN1_NO_XER): the library never prints or reads or writes XER,
    # and a function no descriptor names is one the linker can drop.
    set(_id "[A-Za-z0-9_]*")
    set(_line "[^\n]*\n")
    file(GLOB gen_sources ${outdir}/*.c)
    set(wrapped 0)
    set(descriptors 0)
    foreach(f ${gen_sources})
      file(READ ${f} text)
      string(REGEX MATCHALL "asn_TYPE_descriptor_t asn_DEF_${_id} = {\n" found "${text}")
      list(LENGTH found n)
      math(EXPR descriptors "${descriptors} + ${n}")
      string(REGEX REPLACE
        "(asn_TYPE_descriptor_t asn_DEF_${_id} = {\n${_line}${_line}${_line}[ \t]*)(${_id}print${_id})(${_line}${_line}${_line}${_line}[ \t]*)(${_id}_xer${_id})(${_line}[ \t]*)(${_id}_xer${_id})"
        "\\1MEGACO_ASN1_XER(\\2)\\3MEGACO_ASN1_XER(\\4)\\5MEGACO_ASN1_XER(\\6)" fixed "${text}")
      string(REGEX MATCHALL "MEGACO_ASN1_XER\\(" found "${fixed}")
      list(LENGTH found n)
      math(EXPR wrapped "${wrapped} + ${n}")
      if(NOT fixed STREQUAL text)
        file(WRITE ${f} "${fixed}")
      endif()
    endforeach()
    math(EXPR want_wrapped "${descriptors} * 3")
    if(descriptors EQUAL 0 OR NOT wrapped EQUAL want_wrapped)
      message(FATAL_ERROR "asn1c ${ASN1C_VERSION}: ${wrapped} printer/XER entries found in "
        "${descriptors} type descriptors, not 3 each; update cmake/Asn1Generate.cmake")
    endif()
    file(REMOVE ${outdir}/converter-sample.c ${outdir}/Makefile.am.sample)
    file(WRITE ${stamp} "${want}")
  endif()
  # Generated headers end by including asn_internal.h, so the hooks header
  # must sit beside them.
  configure_file(${MEGACO_ASN1_HOOKS} ${outdir}/megaco_asn_hooks.h COPYONLY)
  file(GLOB srcs ${outdir}/*.c)
  set(${out_sources} ${srcs} PARENT_SCOPE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${module})
endfunction()
