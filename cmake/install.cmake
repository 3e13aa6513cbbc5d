# `cmake --install BUILD --prefix P` installs the library as a CMake package: the four layers' static libraries, the
# public headers (include/spinegpu, less the tool's demo rig), the spinegpu command when it is built, and
# P/lib/cmake/spinegpu, so that a consumer writes find_package(spinegpu) and links spinegpu::gpu (or a lower layer).
# The shaders are embedded in the gpu library, so nothing else needs to travel.
include(CMakePackageConfigHelpers)

install(TARGETS spinegpu_core spinegpu_data spinegpu_runtime spinegpu_gpu EXPORT spinegpuTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/spinegpu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} PATTERN demo_rig.hpp EXCLUDE)
install(EXPORT spinegpuTargets NAMESPACE spinegpu:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/spinegpu)

# The static libraries' own dependencies travel as link-only entries, so the package finds them again; oneTBB only
# when this build linked it.
set(SPINEGPU_PACKAGE_NEEDS_TBB ${TBB_FOUND})
configure_package_config_file(cmake/spinegpuConfig.cmake.in ${PROJECT_BINARY_DIR}/spinegpuConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/spinegpu)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/spinegpuConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/spinegpuConfig.cmake ${PROJECT_BINARY_DIR}/spinegpuConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/spinegpu)
