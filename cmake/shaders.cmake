# Shaders: compiled by glslc at build time, to SPIR-V files with names kept (-g, for the reflection test; the layout
# decorations are the same) and to `-mfmt=num` word lists that src/gpu/shaders.cpp embeds, so the binary needs no
# shader files beside it.
find_program(SPINEGPU_GLSLC glslc REQUIRED)
set(SPINEGPU_SHADER_DIR ${PROJECT_BINARY_DIR}/shaders)
file(MAKE_DIRECTORY ${SPINEGPU_SHADER_DIR})
file(GLOB SPINEGPU_SHADER_INCLUDES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/shaders/*.glsl)
set(SPINEGPU_SHADER_DEPENDS ${SPINEGPU_SHADER_INCLUDES} ${PROJECT_SOURCE_DIR}/include/spinegpu/gpu/gpu_layout.h)

# Each argument is a shader in shaders/ (`skin.comp`), or a variant of one, `NAME:SOURCE:MACRO`: SOURCE compiled with
# MACRO defined, as NAME (`raster_onto.comp:raster.comp:SPINEGPU_RASTER_ONTO`).
function(spinegpu_shaders target)
  set(outputs)
  foreach(entry ${ARGN})
    set(shader ${entry})
    set(source_name ${entry})
    set(defines)
    if(entry MATCHES "^([^:]+):([^:]+):(.+)$")
      set(shader ${CMAKE_MATCH_1})
      set(source_name ${CMAKE_MATCH_2})
      set(defines -D${CMAKE_MATCH_3})
    elseif(entry MATCHES ":")
      message(FATAL_ERROR "spinegpu_shaders: '${entry}' is neither a shader nor NAME:SOURCE:MACRO")
    endif()
    set(source ${PROJECT_SOURCE_DIR}/shaders/${source_name})
    set(flags --target-env=vulkan1.2 -O -I ${PROJECT_SOURCE_DIR}/include -I ${PROJECT_SOURCE_DIR}/shaders ${defines})
    add_custom_command(
      OUTPUT ${SPINEGPU_SHADER_DIR}/${shader}.spv ${SPINEGPU_SHADER_DIR}/${shader}.inc
      COMMAND ${SPINEGPU_GLSLC} ${flags} -g ${source} -o ${SPINEGPU_SHADER_DIR}/${shader}.spv
      COMMAND ${SPINEGPU_GLSLC} ${flags} -mfmt=num ${source} -o ${SPINEGPU_SHADER_DIR}/${shader}.inc
      DEPENDS ${source} ${SPINEGPU_SHADER_DEPENDS}
      COMMENT "glslc ${shader}"
      VERBATIM)
    list(APPEND outputs ${SPINEGPU_SHADER_DIR}/${shader}.spv ${SPINEGPU_SHADER_DIR}/${shader}.inc)
  endforeach()
  add_custom_target(${target}_shaders DEPENDS ${outputs})
  add_dependencies(${target} ${target}_shaders)
  target_include_directories(${target} PRIVATE ${SPINEGPU_SHADER_DIR})
endfunction()
