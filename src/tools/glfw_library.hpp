// GLFW, loaded when a window is asked for (`spinegpu view`) rather than linked: spinegpu runs without it everywhere
// else (headless machines, the GPU host the benchmarks run on). Debian's libglfw3 (GLFW 3.3) provides it.
#pragma once

#include <vulkan/vulkan.h>  // (before GLFW's header, so that it declares glfwCreateWindowSurface)

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string>

#include "spinegpu/core/result.hpp"

namespace spinegpu::tools {

// The GLFW functions spinegpu uses, from the loaded library.
struct GlfwLibrary {
    decltype(&glfwInit) init;
    decltype(&glfwTerminate) terminate;
    decltype(&glfwGetError) get_error;
    decltype(&glfwVulkanSupported) vulkan_supported;
    decltype(&glfwGetRequiredInstanceExtensions) required_instance_extensions;
    decltype(&glfwCreateWindowSurface) create_window_surface;
    decltype(&glfwWindowHint) window_hint;
    decltype(&glfwCreateWindow) create_window;
    decltype(&glfwDestroyWindow) destroy_window;
    decltype(&glfwWindowShouldClose) window_should_close;
    decltype(&glfwSetWindowShouldClose) set_window_should_close;
    decltype(&glfwSetWindowTitle) set_window_title;
    decltype(&glfwGetFramebufferSize) framebuffer_size;
    decltype(&glfwSetWindowUserPointer) set_window_user_pointer;
    decltype(&glfwGetWindowUserPointer) window_user_pointer;
    decltype(&glfwSetKeyCallback) set_key_callback;
    decltype(&glfwSetScrollCallback) set_scroll_callback;
    decltype(&glfwSetMouseButtonCallback) set_mouse_button_callback;
    decltype(&glfwSetCursorPosCallback) set_cursor_pos_callback;
    decltype(&glfwGetCursorPos) cursor_pos;
    decltype(&glfwGetWindowSize) window_size;
    decltype(&glfwPollEvents) poll_events;
    decltype(&glfwWaitEventsTimeout) wait_events_timeout;
    decltype(&glfwGetPrimaryMonitor) primary_monitor;
    decltype(&glfwGetVideoMode) video_mode;

    // GLFW's description of its last error ("" when none), cleared.
    std::string last_error() const;
};

// Loads libglfw.so.3 once (it stays loaded); fails, saying what to install, when it is missing or lacks a function.
Result<const GlfwLibrary*> load_glfw();

}  // namespace spinegpu::tools
