# cmake -DIN=file -DOUT=file.c -DSYMBOL=name -P EmbedFile.cmake
# Writes `const unsigned char NAME[]` (NUL-terminated) and `const size_t NAME_len`.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" nhex)
math(EXPR len "${nhex} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT}.tmp "/* Generated from ${IN} by cmake/EmbedFile.cmake; do not edit. */\n#include <stddef.h>\n\n__attribute__((visibility(\"hidden\"))) extern const unsigned char ${SYMBOL}[];\n__attribute__((visibility(\"hidden\"))) extern const size_t ${SYMBOL}_len;\nconst unsigned char ${SYMBOL}[] = {\n${bytes}0x00\n};\nconst size_t ${SYMBOL}_len = ${len};\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
file(REMOVE ${OUT}.tmp)
