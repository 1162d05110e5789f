# s390x: 64-bit big-endian (IBM Z), run under qemu-user.
#   cmake -S . -B build-s390x -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/s390x.cmake
set(MEGACO_CROSS_TRIPLET s390x-linux-gnu)
set(MEGACO_CROSS_PROCESSOR s390x)
set(MEGACO_CROSS_QEMU qemu-s390x-static)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
