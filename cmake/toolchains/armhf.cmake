# armhf: 32-bit little-endian ARM (ARMv7, hard float), run under qemu-user.
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/armhf.cmake
set(MEGACO_CROSS_TRIPLET arm-linux-gnueabihf)
set(MEGACO_CROSS_PROCESSOR arm)
set(MEGACO_CROSS_QEMU qemu-arm-static)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
# 64-bit file offsets, as a 32-bit program on today's file systems needs:
# without them readdir() under qemu fails with EOVERFLOW on the build
# machine's ext4 (its directory offsets are 64-bit hashes) and the fuzz
# replay tests find no inputs. libmegaco's API has no off_t.
set(CMAKE_C_FLAGS_INIT "-D_FILE_OFFSET_BITS=64")
