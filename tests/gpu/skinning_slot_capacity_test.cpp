// Skeleton types with many slots: the skinning pass holds a type's slots in shared memory, as many as the device
// allows (1024 where it has 25,096 bytes per workgroup, 661 within Vulkan's guaranteed 16,384). Types up to that
// draw on every path exactly as the CPU path does; a type past it is refused by name on the skinning paths and drawn
// by the others, and the renderer's other types still skin; past 1024 the bind form refuses it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "renderer_test_support.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

// `count` slots on the root, each showing a 4 x 4 square of its own colour, 40 to a row; halfway, a clipping
// attachment over the left half (x < 0) that ends at the last slot.
std::string many_slots_skeleton(int count) {
    std::string slots, attachments;
    const int clip = count / 2;
    for (int i = 0; i < count; ++i) {
        std::string name = "s";
        name += std::to_string(i);
        char color[9];
        std::snprintf(color, sizeof color, "%02x%02x%02xff", (i * 37) & 255, (i * 91) & 255, (i * 53) & 255);
        slots += std::string(i == 0 ? "" : ",") + R"({"name": ")" + name + R"(", "bone": "root", "color": ")" +
                 color + R"(", "attachment": ")" + (i == clip ? "clip" : "white") + "\"}";
        const std::string attachment =
            i == clip ? R"("clip": {"type": "clipping", "end": "s)" + std::to_string(count - 1) +
                            R"(", "vertexCount": 4, "vertices": [-500,-500, 0,-500, 0,500, -500,500]})"
                      : R"("white": {"x": )" + std::to_string((i % 40) * 6 - 120) + R"(, "y": )" +
                            std::to_string((i / 40) * 6 - 80) + R"(, "width": 4, "height": 4})";
        attachments += std::string(i == 0 ? "" : ",") + "\"" + name + "\": {" + attachment + "}";
    }
    return R"({"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}], "slots": [)" + slots +
           R"(], "skins": [{"name": "default", "attachments": {)" + attachments + "}}]}";
}

// The skeleton above with a white page.
using ManySlots = TextSkeleton;

// Loads ManySlots of `count` slots; null after recording a failure.
std::unique_ptr<ManySlots> load_many_slots(int count) {
    return load_text_skeleton(many_slots_skeleton(count), "many-slots.json", k_white_atlas, "white.atlas");
}

// Adds `many` to `renderer` as the type `name`.
Result<std::uint32_t> add_many_slots(Renderer& renderer, const ManySlots& many,
                                     const std::string& name = "many-slots") {
    return renderer.add_skeleton_type(many.data, many.atlas, many.binding, white_pages(1, 4), name);
}

// Draws `many`'s setup pose, twice (the second tinted), through the CPU path and `paths`, and expects each path's
// geometry to be the CPU path's.
void expect_drawn_as_the_cpu_path(Renderer& renderer, const ManySlots& many, std::uint32_t type,
                                  std::initializer_list<RenderPath> paths) {
    const CharacterDraw characters[2] = {{&many.pose, type, Color{}},
                                         {&many.pose, type, Color{0.5f, 0.75f, 1.0f, 0.8f}}};
    const Camera2D camera{0.5f, k_width / 2.0f, k_height / 2.0f};
    Result<FrameStats> cpu = renderer.draw(characters, camera, k_width, k_height, k_background, RenderPath::cpu);
    ASSERT_TRUE(cpu.ok()) << cpu.error().message();
    const DrawnGeometry want = read_geometry(renderer, "cpu path");
    // Every square but the clip's slot, two triangles each, twice; the clip's polygon, its vertices only.
    const auto squares = static_cast<std::uint32_t>(many.data.slots.size() - 1);
    EXPECT_EQ(want.indices.size(), 2 * squares * 6u);
    EXPECT_EQ(want.vertices.size(), 2 * (squares * 4u + 4u));
    for (const RenderPath path : paths) {
        const std::string where = path == RenderPath::gpu ? "gpu path" : "gpu_tiles path";
        Result<FrameStats> frame = renderer.draw(characters, camera, k_width, k_height, k_background, path);
        ASSERT_TRUE(frame.ok()) << where << ": " << frame.error().message();
        expect_same_geometry(read_geometry(renderer, where), want, where);
    }
}

TEST(SkinningPass, a_type_of_1000_slots_skins_as_the_cpu_path_does) {
    std::unique_ptr<ManySlots> many = load_many_slots(1000);
    ASSERT_NE(many, nullptr);
    SPINEGPU_REQUIRE_RENDERER(renderer);
    Result<std::uint32_t> type = add_many_slots(*renderer, *many);
    ASSERT_TRUE(type.ok()) << type.error().message();
    expect_drawn_as_the_cpu_path(*renderer, *many, *type, {RenderPath::gpu, RenderPath::gpu_tiles});
    expect_no_validation_messages(*renderer);
}

TEST(SkinningPass, within_16_kb_of_shared_memory_a_type_of_661_slots_skins_as_the_cpu_path_does) {
    std::unique_ptr<ManySlots> many = load_many_slots(661);
    ASSERT_NE(many, nullptr);
    SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_SHARED_MEMORY", "16384");
    Result<std::uint32_t> type = add_many_slots(*renderer, *many);
    ASSERT_TRUE(type.ok()) << type.error().message();
    expect_drawn_as_the_cpu_path(*renderer, *many, *type, {RenderPath::gpu});
    expect_no_validation_messages(*renderer);
}

TEST(SkinningPass, within_16_kb_of_shared_memory_a_type_of_662_slots_is_refused_by_name_on_the_gpu_path) {
    std::unique_ptr<ManySlots> many = load_many_slots(662), few = load_many_slots(20);
    ASSERT_NE(many, nullptr);
    ASSERT_NE(few, nullptr);
    SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_SHARED_MEMORY", "16384");
    Result<std::uint32_t> type = add_many_slots(*renderer, *many);
    ASSERT_TRUE(type.ok()) << type.error().message();
    // Another type of the same renderer, within the pass, still skins on the gpu path.
    Result<std::uint32_t> small_type = add_many_slots(*renderer, *few, "few-slots");
    ASSERT_TRUE(small_type.ok()) << small_type.error().message();
    expect_drawn_as_the_cpu_path(*renderer, *few, *small_type, {RenderPath::gpu});
    const CharacterDraw character{&many->pose, *type, Color{}};
    const Camera2D camera{0.5f, k_width / 2.0f, k_height / 2.0f};
    Result<FrameStats> refused =
        renderer->draw({&character, 1}, camera, k_width, k_height, k_background, RenderPath::gpu);
    ASSERT_FALSE(refused.ok()) << "662 slots skinned in room for 661";
    EXPECT_EQ(refused.error().file, "many-slots");
    EXPECT_NE(refused.error().message().find("662 slots, more than the 661 this device's skinning pass holds"),
              std::string::npos)
        << refused.error().message();
    // The paths that do not skin in compute still draw it.
    for (const RenderPath path : {RenderPath::cpu, RenderPath::gpu_vertex}) {
        Result<FrameStats> drawn = renderer->draw({&character, 1}, camera, k_width, k_height, k_background, path);
        ASSERT_TRUE(drawn.ok()) << drawn.error().message();
        EXPECT_EQ(drawn->triangles, 661u * 2);
    }
    expect_no_validation_messages(*renderer);
}

TEST(BindForm, a_type_of_more_than_1024_slots_is_refused) {
    std::unique_ptr<ManySlots> many = load_many_slots(1025);
    ASSERT_NE(many, nullptr);
    const PagePlacement page{0, 1, 1};
    Result<StaticSkeleton> bind = build_static_skeleton(many->data, many->atlas, many->binding, {&page, 1}, "many");
    ASSERT_FALSE(bind.ok());
    EXPECT_EQ(bind.error().message(), "many: slots: 1025 slots; the GPU path takes at most 1024");
    std::unique_ptr<ManySlots> most = load_many_slots(1024);
    ASSERT_NE(most, nullptr);
    EXPECT_TRUE(build_static_skeleton(most->data, most->atlas, most->binding, {&page, 1}, "most").ok());
}

}  // namespace
}  // namespace spinegpu::test
