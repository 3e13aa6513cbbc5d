// What the viewer's keys and mouse change (`spinegpu view`): closing, pausing, and a zoom and pan over the scene's
// camera. Esc or Q closes, Space pauses, the wheel zooms about the cursor, dragging with the left button pans, R goes
// back to the scene's camera.
#pragma once

#include <cstdint>

#include "glfw_library.hpp"
#include "scene_file.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::tools {

struct ViewControls {
    bool paused = false;
    // Over the scene's camera fitted to the window: pixel' = zoom * pixel + pan (window pixels).
    double zoom = 1, pan_x = 0, pan_y = 0;
    bool dragging = false;              // the left button is down
    double cursor_x = 0, cursor_y = 0;  // where the cursor was at the last event read (window pixels)
    double pixels_per_unit_x = 1, pixels_per_unit_y = 1;  // framebuffer pixels per screen unit (high-DPI displays)

    // The camera for a window of w x h pixels: the scene's `camera`, with the scene's canvas scaled to fit the
    // window and centred, then zoomed and panned.
    gpu::Camera2D camera(const gpu::Camera2D& scene_camera, const SceneFile& scene, int w, int h) const;
    // Zooms by 1.25^steps about (x, y) (window pixels), within 1/64 to 4096 times.
    void zoom_about(double x, double y, double steps);
    // Pans by (dx, dy) window pixels, within 1e8 pixels.
    void pan_by(double dx, double dy);
    void reset();
    // The window's framebuffer is w x h pixels for a window of window_w x window_h screen units (GLFW's cursor
    // positions are in those units).
    void set_pixels_per_unit(int w, int h, int window_w, int window_h);
};

// Makes `window`'s keys, wheel and mouse drive `controls` (and its close button), until detach_controls.
void attach_controls(const GlfwLibrary& glfw, GLFWwindow* window, ViewControls& controls);
void detach_controls(const GlfwLibrary& glfw, GLFWwindow* window);

}  // namespace spinegpu::tools
