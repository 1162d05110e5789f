# Shared part of the Debian cross toolchain files in this folder: the
# including file sets MEGACO_CROSS_TRIPLET (GNU triplet, as in
# /usr/lib/<triplet>), MEGACO_CROSS_PROCESSOR and MEGACO_CROSS_QEMU.
#
# The compilers are Debian's gcc-<triplet> and g++-<triplet>; the target's libyaml and cmocka come
# from the multiarch packages (libyaml-dev:<arch>, libcmocka-dev:<arch>) and
# are found through pkg-config reading only the target's .pc files. Target
# programs (ctest, the tests' scripts) run under qemu-user through
# CMAKE_CROSSCOMPILING_EMULATOR. scripts/install-deps.sh --cross installs all
# of it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${MEGACO_CROSS_PROCESSOR})
set(CMAKE_LIBRARY_ARCHITECTURE ${MEGACO_CROSS_TRIPLET})
set(CMAKE_C_COMPILER ${MEGACO_CROSS_TRIPLET}-gcc)
# The tests compile the installed headers as C++ too (tests/clash,
# tests/headers.sh): with the target's g++, not the build machine's.
set(CMAKE_CXX_COMPILER ${MEGACO_CROSS_TRIPLET}-g++)

# The target's libraries and headers; the build's programs (flex, bison,
# asn1c, the code generators' host compiler) from the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/${MEGACO_CROSS_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# pkg-config must not see the build machine's .pc files (their -L would link
# x86_64 libraries). Set in the environment, so that it also holds for
# megacoConfig.cmake's and the tests' pkg_check_modules calls.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${MEGACO_CROSS_TRIPLET}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# No -L: libyaml-dev:<arch> brings the multiarch libc6:<arch>, whose dynamic
# loader is installed at the target's standard path on the build machine.
# Pointing qemu at the cross toolchain's own (older) libc copy instead mixes
# that loader with the multiarch libc.so.6 and aborts at start-up.
find_program(MEGACO_CROSS_QEMU_PATH ${MEGACO_CROSS_QEMU} REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${MEGACO_CROSS_QEMU_PATH})
