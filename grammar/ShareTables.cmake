# What the two scanners need after flex (cmake -P, run by TextGrammar.cmake
# after flex): one copy of their tables, and no write-back of yy_hold_char
# at the start of each match (below).
#
# One copy of flex's tables for the two scanners. Both come from grammar/megaco.l with the
# same table options, so their DFA tables (yy_nxt alone is 35 KB) are the
# same. The reentrant scanner (RE) keeps each table under a library-wide
# name, text_scan_<table>, and the global-state one (NR) gets an extern
# declaration instead of its copy. A table whose text differs between the
# two, or that only one has, stays where it is.
#   cmake -DRE=text_scan_re.c -DNR=text_scan_nr.c -P ShareTables.cmake
file(READ ${RE} re)
file(READ ${NR} nr)
# flex writes a table as "static const TYPE yy_NAME[...] =", then the
# initialiser up to the first ';' (numbers only).
string(REGEX MATCHALL "static const [A-Za-z_0-9]+ yy_[A-Za-z_0-9]+(\\[[^]\n]*\\])+ =" heads "${re}")
set(shared 0)
foreach(head IN LISTS heads)
  string(REGEX REPLACE "static const ([A-Za-z_0-9]+) (yy_[A-Za-z_0-9]+)(.*) =" "\\1" type "${head}")
  string(REGEX REPLACE "static const ([A-Za-z_0-9]+) (yy_[A-Za-z_0-9]+)(.*) =" "\\2" name "${head}")
  string(REGEX REPLACE "static const ([A-Za-z_0-9]+) (yy_[A-Za-z_0-9]+)(.*) =" "\\3" dims "${head}")
  foreach(v re nr)
    string(FIND "${${v}}" "${head}" at)
    if(at LESS 0)
      break()
    endif()
    string(SUBSTRING "${${v}}" ${at} -1 rest)
    string(FIND "${rest}" ";" end)
    math(EXPR end "${end} + 1")
    string(SUBSTRING "${rest}" 0 ${end} ${v}_def)
  endforeach()
  if(at LESS 0 OR NOT re_def STREQUAL nr_def)
    continue()
  endif()
  string(REPLACE "yy_" "text_scan_" global "${name}")
  set(decl "#define ${name} ${global}\nextern const ${type} ${name}${dims};\n")
  string(REPLACE "${head}" "${decl}const ${type} ${name}${dims} =" re "${re}")
  string(REPLACE "${nr_def}" "${decl}" nr "${nr}")
  math(EXPR shared "${shared} + 1")
endforeach()
if(shared EQUAL 0)
  message(FATAL_ERROR "ShareTables.cmake: no table common to ${RE} and ${NR}")
endif()
# flex's loop starts each match by putting back the byte its last match
# overwrote with a NUL for yytext. megaco.l's YY_DO_BEFORE_ACTION writes no
# NUL and its actions never write the input, so that store writes the byte
# that is already there, once a match: taken out. It must be there to take:
# megaco.l's SKIP_TO no longer keeps yy_hold_char up to date, so a write-back
# left in would put a stale byte into the input.
foreach(v re nr)
  string(REGEX REPLACE "(/\\* Support of yytext\\. \\*/\n[\t ]*)\\*yy_cp = [^;\n]*yy_hold_char[^;\n]*;"
    "\\1/* the input is never written: see megaco.l, SKIP_TO */" out "${${v}}")
  if(out STREQUAL "${${v}}")
    message(FATAL_ERROR "ShareTables.cmake: flex's yy_hold_char write-back not found "
      "(megaco.l's SKIP_TO needs it gone)")
  endif()
  set(${v} "${out}")
endforeach()
# The number flex gave each rule whose action megaco.l labels (word_rule:,
# lbrace_rule:, ...), as RULE_NO_<label> at the top of both scanners: the
# next-byte dispatch's check (megaco.l, text_scan_check_next_byte) compares
# them with flex's tables. flex writes each action as "case N:", then
# YY_RULE_SETUP, a #line, and the action's text.
string(REGEX MATCHALL "case [0-9]+:\n(/\\*[^\n]*\\*/\n)?YY_RULE_SETUP\n#line [^\n]*\n\\{[ \n\t]*[a-z_]+_rule:"
  labelled "${re}")
set(rule_nos "")
foreach(l IN LISTS labelled)
  string(REGEX REPLACE "^case ([0-9]+):.*\\{[ \n\t]*([a-z_]+_rule):$" "#define RULE_NO_\\2 \\1\n" def "${l}")
  string(APPEND rule_nos "${def}")
endforeach()
if(rule_nos STREQUAL "")
  message(FATAL_ERROR "ShareTables.cmake: no labelled rule found in ${RE}")
endif()
foreach(v re nr)
  set(${v} "/* flex's rule numbers of megaco.l's labelled actions (ShareTables.cmake) */\n${rule_nos}${${v}}")
endforeach()
file(WRITE ${RE} "${re}")
file(WRITE ${NR} "${nr}")
