// The per-frame buffers' sizing (DESIGN.md, "Buffers"): they grow to the next power of two that fits, shrink when
// less than a quarter is used, keep their memory mapped, and count their reallocations, which the descriptor sets
// follow. On the device the tests find (lavapipe in CI).
#include <gtest/gtest.h>

#include <memory>

#include "gpu_buffer.hpp"
#include "vk_context.hpp"

namespace spinegpu {
namespace {

using namespace spinegpu::gpu;

// (Suite Renderer: the tests that create a device run without LeakSanitizer; tests/CMakeLists.txt says why.)
TEST(Renderer, per_frame_buffers_grow_by_powers_of_two_and_shrink_below_a_quarter) {
    Result<std::unique_ptr<VkContext>> context = create_vk_context("", true);
    if (!context) {
        const Error& e = context.error();
        if (e.file == "vulkan" && (e.where == "instance" || e.where == "devices")) GTEST_SKIP() << e.message();
        FAIL() << e.message();
    }
    VkContext& c = **context;
    GpuBuffer buffer;
    buffer.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    buffer.host_visible = true;
    struct Step { VkDeviceSize needed; bool reallocates; VkDeviceSize size; };
    const Step steps[] = {
        {1000, true, 1024},      // the first fit makes it, at the next power of two
        {1024, false, 1024},     // fits exactly
        {1025, true, 2048},      // grows
        {100000, true, 131072},  // grows to what it needs at once, not by one doubling
        {32768, false, 131072},  // a quarter used: kept
        {32767, true, 32768},    // below a quarter: shrinks to the next power of two
        {9000, false, 32768},
        {8191, true, 8192},
        {1500, true, 2048},      // from 8 KiB, a quarter is 2 KiB
        {1, false, 2048},        // at 4 KiB or less it never shrinks
        {5000, true, 8192},
    };
    std::uint64_t generation = buffer.generation;
    for (const Step& s : steps) {
        Result<bool> fitted = fit_buffer(c, buffer, s.needed);
        ASSERT_TRUE(fitted.ok()) << fitted.error().message();
        EXPECT_EQ(*fitted, s.reallocates) << "needed " << s.needed;
        EXPECT_EQ(buffer.size, s.size) << "needed " << s.needed;
        if (s.reallocates) ++generation;
        EXPECT_EQ(buffer.generation, generation) << "needed " << s.needed << ": generation counts reallocations";
        ASSERT_NE(buffer.mapped, nullptr) << "needed " << s.needed;
        static_cast<volatile unsigned char*>(buffer.mapped)[buffer.size - 1] = 1;  // the whole size is mapped
    }
    destroy_buffer(c, buffer);
    EXPECT_EQ(buffer.buffer, VK_NULL_HANDLE);
    EXPECT_EQ(c.validation_messages.load(), 0u) << c.first_validation_message;
}

}  // namespace
}  // namespace spinegpu
