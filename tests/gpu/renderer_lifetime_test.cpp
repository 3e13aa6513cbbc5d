// Renderers created and destroyed one after another in one process, as a tool or a test suite does: every one finds
// the device and draws. (NVIDIA's Linux driver, loaded anew for each instance, ran out of static TLS at the 32nd in
// session 27; lavapipe never did. The renderer keeps the driver loaded once it has been.)
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "renderer_test_support.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

TEST(Renderer, sixty_four_renderers_in_turn_in_one_process_each_find_the_device_and_draw) {
    std::string skip_reason;
    {
        std::unique_ptr<Renderer> first = create_renderer(skip_reason);
        if (!first) {
            if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;
            return;
        }
    }
    for (int i = 0; i < 64; ++i) {
        Result<std::unique_ptr<Renderer>> renderer = Renderer::create(RendererDesc{});
        ASSERT_TRUE(renderer.ok()) << "renderer " << i + 2 << ": " << renderer.error().message();
        Result<FrameStats> frame = (*renderer)->draw({}, Camera2D{}, 8, 8, Color{0, 0, 0, 1}, RenderPath::gpu);
        ASSERT_TRUE(frame.ok()) << "renderer " << i + 2 << ": " << frame.error().message();
        ASSERT_TRUE((*renderer)->finish().ok());
    }
}

}  // namespace
}  // namespace spinegpu::test
