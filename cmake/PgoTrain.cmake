# The training run of MEGACO_PGO=ON (cmake/Pgo.cmake), as a script:
#   cmake -DLOOP=megaco-loop -DCORPUS=DIR -DPROFILE_DIR=DIR -DROUNDS=N -P PgoTrain.cmake
# Starts from an empty profile (GCC adds a run's counts to what is there), then
# runs each operation that megaco-bench times over CORPUS/<encoding>/*: decode
# and encode for all five encodings, and for the text ones the other scanner
# and the scanner alone. Any codec error fails the build: a profile of error
# paths would describe the wrong program.

foreach(v LOOP CORPUS PROFILE_DIR ROUNDS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "PgoTrain.cmake: -D${v}=... missing")
  endif()
endforeach()

file(REMOVE_RECURSE ${PROFILE_DIR})
file(MAKE_DIRECTORY ${PROFILE_DIR})

foreach(enc pretty compact ber per aper)
  file(GLOB files ${CORPUS}/${enc}/*)
  if(NOT files)
    message(FATAL_ERROR "PgoTrain.cmake: no training messages in ${CORPUS}/${enc}")
  endif()
  set(runs "${enc} dec" "${enc} enc")
  if(enc STREQUAL "pretty" OR enc STREQUAL "compact")
    list(APPEND runs "--non-reentrant ${enc} dec" "${enc} scan")
  endif()
  foreach(run ${runs})
    separate_arguments(args UNIX_COMMAND "${run}")
    execute_process(COMMAND ${LOOP} ${args} ${ROUNDS} ${files} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "PgoTrain.cmake: megaco-loop ${run} failed (${rc})")
    endif()
  endforeach()
endforeach()
