# armhf: 32-bit little-endian ARM (ARMv7, hard float), run under qemu-user.
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/armhf.cmake
set(MEGACO_CROSS_TRIPLET arm-linux-gnueabihf)
set(MEGACO_CROSS_PROCESSOR arm)
set(MEGACO_CROSS_QEMU qemu-arm-static)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
