// GLFW loaded at run time: see glfw_library.hpp.
#include "glfw_library.hpp"

#include <dlfcn.h>

namespace spinegpu::tools {
namespace {

// Looks `name` up in `library` into `out`; false when it is missing.
template <typename Function>
bool find(void* library, const char* name, Function& out) {
    out = reinterpret_cast<Function>(dlsym(library, name));
    return out != nullptr;
}

Result<GlfwLibrary> open_glfw() {
    void* library = dlopen("libglfw.so.3", RTLD_NOW | RTLD_LOCAL);  // never closed: GLFW keeps state for the process
    if (library == nullptr)
        return make_error("glfw", "libglfw.so.3",
                          std::string("a window needs GLFW 3.3 or later (Debian: apt-get install libglfw3): ") +
                              dlerror());
    GlfwLibrary g{};
    const bool found =
        find(library, "glfwInit", g.init) && find(library, "glfwTerminate", g.terminate) &&
        find(library, "glfwGetError", g.get_error) && find(library, "glfwVulkanSupported", g.vulkan_supported) &&
        find(library, "glfwGetRequiredInstanceExtensions", g.required_instance_extensions) &&
        find(library, "glfwCreateWindowSurface", g.create_window_surface) &&
        find(library, "glfwWindowHint", g.window_hint) && find(library, "glfwCreateWindow", g.create_window) &&
        find(library, "glfwDestroyWindow", g.destroy_window) &&
        find(library, "glfwWindowShouldClose", g.window_should_close) &&
        find(library, "glfwSetWindowShouldClose", g.set_window_should_close) &&
        find(library, "glfwSetWindowTitle", g.set_window_title) &&
        find(library, "glfwGetFramebufferSize", g.framebuffer_size) &&
        find(library, "glfwSetWindowUserPointer", g.set_window_user_pointer) &&
        find(library, "glfwGetWindowUserPointer", g.window_user_pointer) &&
        find(library, "glfwSetKeyCallback", g.set_key_callback) &&
        find(library, "glfwSetScrollCallback", g.set_scroll_callback) &&
        find(library, "glfwSetMouseButtonCallback", g.set_mouse_button_callback) &&
        find(library, "glfwSetCursorPosCallback", g.set_cursor_pos_callback) &&
        find(library, "glfwGetCursorPos", g.cursor_pos) && find(library, "glfwGetWindowSize", g.window_size) &&
        find(library, "glfwPollEvents", g.poll_events) &&
        find(library, "glfwWaitEventsTimeout", g.wait_events_timeout) &&
        find(library, "glfwGetPrimaryMonitor", g.primary_monitor) && find(library, "glfwGetVideoMode", g.video_mode);
    if (!found)
        return make_error("glfw", "libglfw.so.3", "a function spinegpu needs is missing (GLFW 3.3 or later needed)");
    return g;
}

}  // namespace

std::string GlfwLibrary::last_error() const {
    const char* description = nullptr;
    get_error(&description);
    return description != nullptr ? description : "";
}

Result<const GlfwLibrary*> load_glfw() {
    static const Result<GlfwLibrary> library = open_glfw();
    if (!library) return library.error();
    return &*library;
}

}  // namespace spinegpu::tools
