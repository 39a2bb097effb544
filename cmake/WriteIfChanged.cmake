# kcc_write_if_changed(PATH CONTENT): writes CONTENT to PATH only when it
# differs from what is there, so that a generated header rewritten with the
# same text keeps its time stamp and rebuilds nothing that includes it.
function(kcc_write_if_changed path content)
  set(old "")
  if(EXISTS "${path}")
    file(READ "${path}" old)
  endif()
  if(NOT old STREQUAL content)
    file(WRITE "${path}" "${content}")
  endif()
endfunction()
