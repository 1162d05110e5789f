# ctest bench_quick (cmake -P): megaco-bench runs over the corpus with a tiny
# --min-time, exits 0, and its JSON parses with every row ok (a scanner-only
# row with its decode / scanner-only ratio, a non-reentrant row with its
# reentrant / non-reentrant one).
# Correctness only: no assertion on any time. Also runs the threaded,
# repeated path on a few messages (every row with its speed-up) and writes
# the SVG chart.
#   -DBENCH=<megaco-bench> -DCORPUS=<corpus dir> -DWORK=<scratch dir>
cmake_minimum_required(VERSION 3.20)

# Fails unless row i of json has a positive number in field (a figure the
# row must carry; null, missing or 0 means it was not measured).
function(check_positive json i field what)
  string(JSON v GET "${json}" rows ${i} ${field})
  if(NOT v MATCHES "^[0-9]+(\\.[0-9]+)?$" OR v LESS_EQUAL 0)
    string(JSON codec GET "${json}" rows ${i} codec)
    string(JSON config GET "${json}" rows ${i} config)
    message(FATAL_ERROR "${what}: ${codec} [${config}] has ${field} '${v}'")
  endif()
endfunction()

# threads: with --threads, every row's speed-up figures too.
function(check_json json what threads)
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
      # A scanner-only row carries its paired full decode and the ratio, a
      # non-reentrant row its paired decodes and theirs.
      string(JSON config GET "${json}" rows ${i} config)
      if(config STREQUAL "scanner-only")
        check_positive("${json}" ${i} decode_per_scan "${what}")
      elseif(config STREQUAL "non-reentrant")
        check_positive("${json}" ${i} reentrant_per_non_reentrant "${what}")
      endif()
      # With --threads, the speed-up and the one-thread figure timed in turn
      # with the threads (bench_measure.c, measure_message_mt).
      if(threads)
        foreach(field speedup mt_one_thread_msgs_per_s mt_msgs_per_s host_speedup)
          check_positive("${json}" ${i} ${field} "${what}")
        endforeach()
      endif()
    elseif(NOT status STREQUAL "unavailable")
      string(JSON why GET "${json}" rows ${i} error)
      message(FATAL_ERROR "${what}: row ${codec} is ${status}: ${why}")
    endif()
  endforeach()
  if(n_ok EQUAL 0)
    message(FATAL_ERROR "${what}: no row measured")
  endif()
endfunction()

# Runs megaco-bench over the corpus with the options in ARGN, its output in
# `out`; a non-zero exit fails the test, which names the run as what.
macro(run_bench what)
  execute_process(COMMAND ${BENCH} --corpus ${CORPUS} ${ARGN}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "megaco-bench ${what} exited with ${rc}:\n${err}\n${out}")
  endif()
endmacro()

# --require-all: every codec is built now, so an unavailable row is an error.
run_bench("--require-all" --min-time 0.001 --format json --require-all)
check_json("${out}" "full corpus" OFF)
# Stock asn1c beside our engine (MEGACO_ENGINE_ASN1C): ber [asn1c], uper [asn1c].
string(JSON nrows LENGTH "${out}" rows)
math(EXPR last "${nrows} - 1")
set(asn1c_rows "")
foreach(i RANGE ${last})
  string(JSON codec GET "${out}" rows ${i} codec)
  string(JSON config GET "${out}" rows ${i} config)
  if(config STREQUAL "asn1c")
    list(APPEND asn1c_rows ${codec})
  endif()
endforeach()
foreach(c ber uper)
  if(NOT c IN_LIST asn1c_rows)
    message(FATAL_ERROR "full corpus: no ${c} [asn1c] row (asn1c rows: ${asn1c_rows})")
  endif()
endforeach()

run_bench("--clock cpu --format yaml" --min-time 0.0005 --format yaml --messages "msg1*"
  --clock cpu --codecs ber,per,uper)
if(NOT out MATCHES "clock: \"thread-cpu\"")
  message(FATAL_ERROR "megaco-bench --clock cpu --format yaml: no thread-cpu clock:\n${out}")
endif()

file(MAKE_DIRECTORY ${WORK})
file(REMOVE ${WORK}/bench_quick.svg)
run_bench("--threads 2 --repeat 3" --min-time 0.0005 --format json --messages "msg0*"
  --threads 2 --repeat 3 --svg ${WORK}/bench_quick.svg)
check_json("${out}" "threads 2, repeat 3" ON)
if(NOT EXISTS ${WORK}/bench_quick.svg)
  message(FATAL_ERROR "--svg wrote no file")
endif()
# The chart: a label per row (eleven, as in the JSON), the whole document,
# and the method under it cut into lines short enough to stay inside the
# chart's width (bench_svg.c, FOOT_CHARS).
file(READ ${WORK}/bench_quick.svg svg)
string(REGEX MATCHALL "text-anchor=\"end\"" labels "${svg}")
list(LENGTH labels nlabels)
if(NOT nlabels EQUAL 11)
  message(FATAL_ERROR "--svg: ${nlabels} row labels, expected 11:\n${svg}")
endif()
if(NOT svg MATCHES "</svg>\n$")
  message(FATAL_ERROR "--svg: the document does not end with </svg>")
endif()
# (the method has semicolons, which would split CMake's list of matches)
string(REPLACE ";" "," svg_flat "${svg}")
string(REGEX MATCHALL "<tspan x=\"10\"[^>]*>[^<]*</tspan>" foot "${svg_flat}")
list(LENGTH foot nfoot)
if(nfoot LESS 2)
  message(FATAL_ERROR "--svg: the method is not cut into lines:\n${svg}")
endif()
foreach(line IN LISTS foot)
  string(REGEX REPLACE "^<tspan[^>]*>([^<]*)</tspan>$" "\\1" text "${line}")
  string(LENGTH "${text}" len)
  if(len GREATER 185)
    message(FATAL_ERROR "--svg: a method line of ${len} characters runs past the chart: ${text}")
  endif()
endforeach()

# --compare-erlang, where Erlang/OTP is installed (the CI installs it for the
# interop tests): codec by codec with --repeat 2, so both orders of a pair run
# (bench_run.c). Each codec has its Erlang rows and a ratio per Erlang row.
find_program(ESCRIPT escript)
if(ESCRIPT)
  run_bench("--compare-erlang" --min-time 0.0002 --format json --messages "msg0[0-2]*"
    --repeat 2 --compare-erlang)
  check_json("${out}" "compare-erlang" OFF)
  string(JSON erl GET "${out}" erlang)
  check_json("${erl}" "compare-erlang, Erlang's rows" OFF)
  string(JSON n_erl LENGTH "${erl}" rows)
  string(JSON n_ratios LENGTH "${out}" ratios)
  set(want_codecs pretty compact ber per erl_dist)
  set(seen "")
  math(EXPR last "${n_erl} - 1")
  foreach(i RANGE ${last})
    string(JSON codec GET "${erl}" rows ${i} codec)
    list(APPEND seen ${codec})
  endforeach()
  foreach(c IN LISTS want_codecs)
    if(NOT c IN_LIST seen)
      message(FATAL_ERROR "--compare-erlang: no Erlang row for ${c} (rows: ${seen})")
    endif()
  endforeach()
  # every Erlang row but erl_dist (which only Erlang has) is paired with ours
  math(EXPR want_ratios "${n_erl} - 1")
  if(NOT n_ratios EQUAL want_ratios)
    message(FATAL_ERROR "--compare-erlang: ${n_ratios} ratios for ${n_erl} Erlang rows")
  endif()
else()
  message(STATUS "escript not found: --compare-erlang not exercised")
endif()
