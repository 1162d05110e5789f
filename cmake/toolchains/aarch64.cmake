# aarch64: 64-bit little-endian ARM, run under qemu-user. Not a stage of
# scripts/test.sh; scripts/install-deps.sh --aarch64 installs what it needs.
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64.cmake
set(MEGACO_CROSS_TRIPLET aarch64-linux-gnu)
set(MEGACO_CROSS_PROCESSOR aarch64)
set(MEGACO_CROSS_QEMU qemu-aarch64-static)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
