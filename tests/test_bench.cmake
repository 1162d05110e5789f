# ctest bench_quick (cmake -P): megaco-bench runs over the corpus with a tiny
# --min-time, exits 0, and its JSON parses with every row ok.
# Correctness only: no assertion on any time. Also runs the threaded,
# repeated path on a few messages and writes the SVG chart.
#   -DBENCH=<megaco-bench> -DCORPUS=<corpus dir> -DWORK=<scratch dir>
cmake_minimum_required(VERSION 3.20)

function(check_json json what)
  string(JSON nrows ERROR_VARIABLE jerr LENGTH "${json}" rows)
  if(jerr)
    message(FATAL_ERROR "${what}: output is not the expected JSON: ${jerr}\n${json}")
  endif()
  if(nrows LESS 1)
    message(FATAL_ERROR "${what}: no rows")
  endif()
  set(n_ok 0)
  math(EXPR last "${nrows} - 1")
  foreach(i RANGE ${last})
    string(JSON status GET "${json}" rows ${i} status)
    string(JSON codec GET "${json}" rows ${i} codec)
    if(status STREQUAL "ok")
      math(EXPR n_ok "${n_ok} + 1")
    elseif(NOT status STREQUAL "unavailable")
      string(JSON why GET "${json}" rows ${i} error)
      message(FATAL_ERROR "${what}: row ${codec} is ${status}: ${why}")
    endif()
  endforeach()
  if(n_ok EQUAL 0)
    message(FATAL_ERROR "${what}: no row measured")
  endif()
endfunction()

# --require-all: every codec is built now, so an unavailable row is an error.
execute_process(COMMAND ${BENCH} --corpus ${CORPUS} --min-time 0.001 --format json --require-all
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "megaco-bench exited with ${rc}:\n${err}\n${out}")
endif()
check_json("${out}" "full corpus")

execute_process(COMMAND ${BENCH} --corpus ${CORPUS} --min-time 0.0005 --format yaml
  --messages "msg1*" --clock cpu --codecs ber,per
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "clock: \"thread-cpu\"")
  message(FATAL_ERROR "megaco-bench --clock cpu --format yaml exited with ${rc}:\n${err}\n${out}")
endif()

file(MAKE_DIRECTORY ${WORK})
file(REMOVE ${WORK}/bench_quick.svg)
execute_process(COMMAND ${BENCH} --corpus ${CORPUS} --min-time 0.0005 --format json
  --messages "msg0*" --threads 2 --repeat 3 --svg ${WORK}/bench_quick.svg
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "megaco-bench --threads 2 --repeat 3 exited with ${rc}:\n${err}\n${out}")
endif()
check_json("${out}" "threads 2, repeat 3")
if(NOT EXISTS ${WORK}/bench_quick.svg)
  message(FATAL_ERROR "--svg wrote no file")
endif()
