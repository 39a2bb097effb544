# What `cmake --install build --prefix P` puts under P (README, "Installing"):
#
#   bin/kcc, bin/kcc-opt                     the compiler and the pass driver
#   lib/libkcc_runtime.so     kcc::runtime   devices, buffers, code objects,
#                                            launches, the emulator; no MLIR
#   lib/libkcc_jit.so         kcc::jit       the JIT: the compiler in-process
#   lib/libkcc_ops.so         kcc::ops       the ops and kcc's kernels
#   lib/libkcc_c.so           kcc::c         kcc_c.h, the C ABI over the
#                                            runtime (launchers, C programs)
#   include/kcc_c.h                          its header
#   include/kcc/{target,runtime,kernels}/    their headers
#   lib/cmake/kcc/                           find_package(kcc)
#   lib/pkgconfig/kcc.pc, kcc-runtime.pc,    pkg-config
#                 kcc-c.pc
#   lib/python3/dist-packages/kcc/           the Python package
#
# The tree builds its parts as static libraries (tools and tests link them);
# the shared libraries users link are assembled from those archives, each
# archive in exactly one of them, so a program holds one copy of each
# singleton (the runtime's devices, the JIT's caches, the kernel catalog).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KCC_ARCHIVES_ONLY_SOURCE ${CMAKE_BINARY_DIR}/kcc-shared-library.cpp)
file(WRITE ${KCC_ARCHIVES_ONLY_SOURCE}
     "// The objects of kcc's shared libraries come from whole archives.\n")
# Installed files find each other ($ORIGIN) and the distribution's libLLVM.
set(KCC_INSTALL_RPATH "$ORIGIN;${LLVM_LIBRARY_DIR}")

# Links every object of `archives` (CMake targets) into `target`. Raw paths,
# not the targets: the targets would also bring their own dependencies,
# archives that belong to another of the shared libraries.
function(kcc_whole_archives target)
  set(files)
  foreach(archive ${ARGN})
    list(APPEND files $<TARGET_FILE:${archive}>)
    add_dependencies(${target} ${archive})
  endforeach()
  target_link_libraries(${target} PRIVATE
    -Wl,--whole-archive ${files} -Wl,--no-whole-archive)
endfunction()

add_library(kcc_runtime SHARED ${KCC_ARCHIVES_ONLY_SOURCE})
kcc_whole_archives(kcc_runtime KCCRuntime KCCEmu KCCEmuTiming KCCTarget)
target_link_libraries(kcc_runtime PRIVATE LLVM ${CMAKE_DL_LIBS})

add_library(kcc_jit SHARED ${KCC_ARCHIVES_ONLY_SOURCE})
kcc_whole_archives(kcc_jit KCCJit)
target_link_libraries(kcc_jit PUBLIC kcc_runtime PRIVATE KCCPipeline LLVM)

add_library(kcc_c SHARED ${KCC_ARCHIVES_ONLY_SOURCE})
kcc_whole_archives(kcc_c KCCRuntimeC)
target_link_libraries(kcc_c PRIVATE kcc_runtime LLVM)
target_include_directories(kcc_c INTERFACE
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

add_library(kcc_ops SHARED ${KCC_ARCHIVES_ONLY_SOURCE})
kcc_whole_archives(kcc_ops KCCOps KCCKernelSources)
target_link_libraries(kcc_ops PUBLIC kcc_jit kcc_runtime PRIVATE LLVM)

# The headers include LLVM's ADT and Support headers (llvm::Expected and
# friends are the API's error type), so users compile against LLVM's too ...
target_include_directories(kcc_runtime INTERFACE
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/kcc>
  $<INSTALL_INTERFACE:${LLVM_INCLUDE_DIRS}>)
target_compile_features(kcc_runtime INTERFACE cxx_std_17)
# ... and link libLLVM, whose Error, Expected and Twine they call.
target_link_libraries(kcc_runtime INTERFACE
  $<INSTALL_INTERFACE:${LLVM_LIBRARY_DIR}/libLLVM.so>)
foreach(lib kcc_runtime kcc_jit kcc_ops kcc_c)
  string(REPLACE "kcc_" "" exported ${lib}) # kcc::runtime, kcc::jit, kcc::ops
  set_target_properties(${lib} PROPERTIES
    EXPORT_NAME ${exported}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
    INSTALL_RPATH "${KCC_INSTALL_RPATH}"
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
  # Every symbol resolved now, not in the user's program.
  target_link_options(${lib} PRIVATE -Wl,--no-undefined)
endforeach()
add_custom_target(kcc-shared-libraries DEPENDS kcc_runtime kcc_jit kcc_ops kcc_c)

install(TARGETS kcc_runtime kcc_jit kcc_ops kcc_c EXPORT kccTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS kcc kcc-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set_target_properties(kcc kcc-opt PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(FILES ${PROJECT_SOURCE_DIR}/runtime/capi/kcc_c.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(part target runtime kernels)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${part}
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kcc
    FILES_MATCHING PATTERN "*.h")
endforeach()

set(KCC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kcc)
install(EXPORT kccTargets NAMESPACE kcc:: DESTINATION ${KCC_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kccConfig.cmake.in
  ${CMAKE_BINARY_DIR}/kccConfig.cmake INSTALL_DESTINATION ${KCC_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/kccConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/kccConfig.cmake
              ${CMAKE_BINARY_DIR}/kccConfigVersion.cmake
        DESTINATION ${KCC_CMAKE_DIR})

foreach(pc kcc kcc-runtime kcc-c)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in
                 ${CMAKE_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/${pc}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

if(KCC_ENABLE_PYTHON)
  # Debian's layout: PYTHONPATH=P/lib/python3/dist-packages.
  set(KCC_PYTHON_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/python3/dist-packages/kcc)
  install(TARGETS _kcc LIBRARY DESTINATION ${KCC_PYTHON_INSTALL_DIR})
  # lib/python3/dist-packages/kcc -> lib, where the kcc libraries are.
  set_target_properties(_kcc PROPERTIES
    INSTALL_RPATH "$ORIGIN/../../..;${LLVM_LIBRARY_DIR}")
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/kcc/
    DESTINATION ${KCC_PYTHON_INSTALL_DIR}
    FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
endif()
