// The viewer's keys and mouse: see view_controls.hpp.
#include "view_controls.hpp"

#include <algorithm>
#include <cmath>

namespace spinegpu::tools {
namespace {

constexpr double k_min_zoom = 1.0 / 64, k_max_zoom = 4096, k_max_pan = 1e8;

const GlfwLibrary* g_glfw = nullptr;  // for the callbacks (one window at a time)

ViewControls& controls_of(GLFWwindow* window) {
    return *static_cast<ViewControls*>(g_glfw->window_user_pointer(window));
}

void on_key(GLFWwindow* window, int key, int, int action, int) {
    if (action != GLFW_PRESS) return;
    ViewControls& controls = controls_of(window);
    if (key == GLFW_KEY_ESCAPE || key == GLFW_KEY_Q) g_glfw->set_window_should_close(window, GLFW_TRUE);
    if (key == GLFW_KEY_SPACE) controls.paused = !controls.paused;
    if (key == GLFW_KEY_R) controls.reset();
}

// (The wheel and the buttons act where the cursor was when they were used: at the position of the last motion
// event before them, not where the pointer is when the events are read, which is later when frames are slow.)
void on_scroll(GLFWwindow* window, double, double steps) {
    ViewControls& controls = controls_of(window);
    controls.zoom_about(controls.cursor_x, controls.cursor_y, steps);
}

void on_mouse_button(GLFWwindow* window, int button, int action, int) {
    if (button == GLFW_MOUSE_BUTTON_LEFT) controls_of(window).dragging = action == GLFW_PRESS;
}

void on_cursor(GLFWwindow* window, double x, double y) {
    ViewControls& controls = controls_of(window);
    x *= controls.pixels_per_unit_x;
    y *= controls.pixels_per_unit_y;
    if (controls.dragging) controls.pan_by(x - controls.cursor_x, y - controls.cursor_y);
    controls.cursor_x = x;
    controls.cursor_y = y;
}

}  // namespace

gpu::Camera2D ViewControls::camera(const gpu::Camera2D& scene_camera, const SceneFile& scene, int w, int h) const {
    const double fit = std::min(static_cast<double>(w) / scene.width, static_cast<double>(h) / scene.height);
    const double left = (w - scene.width * fit) / 2, top = (h - scene.height * fit) / 2;
    return {static_cast<float>(zoom * scene_camera.scale * fit),
            static_cast<float>(zoom * (scene_camera.ox * fit + left) + pan_x),
            static_cast<float>(zoom * (scene_camera.oy * fit + top) + pan_y)};
}

void ViewControls::zoom_about(double x, double y, double steps) {
    if (!std::isfinite(steps)) return;
    const double to = std::clamp(zoom * std::pow(1.25, steps), k_min_zoom, k_max_zoom);
    const double factor = to / zoom;
    zoom = to;
    // The pixel under (x, y) stays under it.
    pan_x = std::clamp(x - factor * (x - pan_x), -k_max_pan, k_max_pan);
    pan_y = std::clamp(y - factor * (y - pan_y), -k_max_pan, k_max_pan);
}

void ViewControls::pan_by(double dx, double dy) {
    pan_x = std::clamp(pan_x + dx, -k_max_pan, k_max_pan);
    pan_y = std::clamp(pan_y + dy, -k_max_pan, k_max_pan);
}

void ViewControls::set_pixels_per_unit(int w, int h, int window_w, int window_h) {
    if (w > 0 && h > 0 && window_w > 0 && window_h > 0) {
        pixels_per_unit_x = static_cast<double>(w) / window_w;
        pixels_per_unit_y = static_cast<double>(h) / window_h;
    }
}

void ViewControls::reset() {
    zoom = 1;
    pan_x = pan_y = 0;
}

void attach_controls(const GlfwLibrary& glfw, GLFWwindow* window, ViewControls& controls) {
    g_glfw = &glfw;
    int w = 0, h = 0, window_w = 0, window_h = 0;
    glfw.framebuffer_size(window, &w, &h);
    glfw.window_size(window, &window_w, &window_h);
    controls.set_pixels_per_unit(w, h, window_w, window_h);
    glfw.cursor_pos(window, &controls.cursor_x, &controls.cursor_y);
    controls.cursor_x *= controls.pixels_per_unit_x;
    controls.cursor_y *= controls.pixels_per_unit_y;
    glfw.set_window_user_pointer(window, &controls);
    glfw.set_key_callback(window, on_key);
    glfw.set_scroll_callback(window, on_scroll);
    glfw.set_mouse_button_callback(window, on_mouse_button);
    glfw.set_cursor_pos_callback(window, on_cursor);
}

void detach_controls(const GlfwLibrary& glfw, GLFWwindow* window) {
    glfw.set_key_callback(window, nullptr);
    glfw.set_scroll_callback(window, nullptr);
    glfw.set_mouse_button_callback(window, nullptr);
    glfw.set_cursor_pos_callback(window, nullptr);
    glfw.set_window_user_pointer(window, nullptr);
}

}  // namespace spinegpu::tools
