# megaco_run_path(VAR TARGET): VAR becomes a path that starts TARGET, a
# program built here, for the tests' scripts: $<TARGET_FILE:TARGET> in a
# native build; in a cross build BUILD/run/TARGET, a script that starts it
# under CMAKE_CROSSCOMPILING_EMULATOR (qemu-user, cmake/toolchains/).
# add_test(COMMAND TARGET ...) needs none of this: ctest adds the emulator.
function(megaco_run_path var target)
  if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
    set(script ${CMAKE_BINARY_DIR}/run/${target})
    set(emu "")
    foreach(arg IN LISTS CMAKE_CROSSCOMPILING_EMULATOR)
      string(APPEND emu "'${arg}' ")
    endforeach()
    file(GENERATE OUTPUT ${script}
      CONTENT "#!/bin/sh\nexec ${emu}'$<TARGET_FILE:${target}>' \"$@\"\n"
      FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                       WORLD_READ WORLD_EXECUTE)
    set(${var} ${script} PARENT_SCOPE)
  else()
    set(${var} $<TARGET_FILE:${target}> PARENT_SCOPE)
  endif()
endfunction()
