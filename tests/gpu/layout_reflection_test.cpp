// Every struct the shaders read or write has the C++ layout (sizeof, offsetof) that the compiled shader declares
// (SPIR-V reflection), the push constant blocks have the sizes the renderer pushes, and the descriptor bindings are
// the renderer's Binding enum, and the skinning pass's shared memory is what the renderer counts for it. The shaders
// are the build's own .spv files (SPINEGPU_SHADER_DIR).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "renderer_impl.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spirv_reflection.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

#define SPINEGPU_MEMBER(T, m) MemberOffset{#m, static_cast<std::uint32_t>(offsetof(T, m))}

// The C++ side: each shared struct's size and every member's offset, by name.
std::vector<StructLayout> cpp_layouts() {
    return {
        {"GpuInfluence", sizeof(GpuInfluence),
         {SPINEGPU_MEMBER(GpuInfluence, bone), SPINEGPU_MEMBER(GpuInfluence, weight), SPINEGPU_MEMBER(GpuInfluence, x),
          SPINEGPU_MEMBER(GpuInfluence, y)}},
        {"GpuBindVertex", sizeof(GpuBindVertex),
         {SPINEGPU_MEMBER(GpuBindVertex, influence_first), SPINEGPU_MEMBER(GpuBindVertex, influence_count),
          SPINEGPU_MEMBER(GpuBindVertex, u), SPINEGPU_MEMBER(GpuBindVertex, v)}},
        {"GpuAttachment", sizeof(GpuAttachment),
         {SPINEGPU_MEMBER(GpuAttachment, vertex_first), SPINEGPU_MEMBER(GpuAttachment, vertex_count),
          SPINEGPU_MEMBER(GpuAttachment, index_first), SPINEGPU_MEMBER(GpuAttachment, index_count),
          SPINEGPU_MEMBER(GpuAttachment, influence_first), SPINEGPU_MEMBER(GpuAttachment, slot_and_end),
          SPINEGPU_MEMBER(GpuAttachment, material), SPINEGPU_MEMBER(GpuAttachment, color)}},
        {"GpuSkeletonType", sizeof(GpuSkeletonType),
         {SPINEGPU_MEMBER(GpuSkeletonType, attachment_first), SPINEGPU_MEMBER(GpuSkeletonType, slot_count),
          SPINEGPU_MEMBER(GpuSkeletonType, slot_setup_first), SPINEGPU_MEMBER(GpuSkeletonType, flags),
          SPINEGPU_MEMBER(GpuSkeletonType, setup_list_first)}},
        {"GpuSlotSetup", sizeof(GpuSlotSetup),
         {SPINEGPU_MEMBER(GpuSlotSetup, light), SPINEGPU_MEMBER(GpuSlotSetup, dark),
          SPINEGPU_MEMBER(GpuSlotSetup, sections)}},
        {"GpuCharacter", sizeof(GpuCharacter),
         {SPINEGPU_MEMBER(GpuCharacter, type), SPINEGPU_MEMBER(GpuCharacter, bone_first),
          SPINEGPU_MEMBER(GpuCharacter, draw_first), SPINEGPU_MEMBER(GpuCharacter, color_first),
          SPINEGPU_MEMBER(GpuCharacter, deform_first), SPINEGPU_MEMBER(GpuCharacter, out_vertex_first),
          SPINEGPU_MEMBER(GpuCharacter, out_index_first), SPINEGPU_MEMBER(GpuCharacter, tint)}},
        {"GpuOutVertex", sizeof(GpuOutVertex),
         {SPINEGPU_MEMBER(GpuOutVertex, x), SPINEGPU_MEMBER(GpuOutVertex, y), SPINEGPU_MEMBER(GpuOutVertex, u),
          SPINEGPU_MEMBER(GpuOutVertex, v), SPINEGPU_MEMBER(GpuOutVertex, light), SPINEGPU_MEMBER(GpuOutVertex, dark),
          SPINEGPU_MEMBER(GpuOutVertex, material), SPINEGPU_MEMBER(GpuOutVertex, clip_first)}},
        {"GpuTriangle", sizeof(GpuTriangle),
         {SPINEGPU_MEMBER(GpuTriangle, x0), SPINEGPU_MEMBER(GpuTriangle, y0), SPINEGPU_MEMBER(GpuTriangle, x1),
          SPINEGPU_MEMBER(GpuTriangle, y1), SPINEGPU_MEMBER(GpuTriangle, x2), SPINEGPU_MEMBER(GpuTriangle, y2),
          SPINEGPU_MEMBER(GpuTriangle, u), SPINEGPU_MEMBER(GpuTriangle, v), SPINEGPU_MEMBER(GpuTriangle, u_x),
          SPINEGPU_MEMBER(GpuTriangle, v_x), SPINEGPU_MEMBER(GpuTriangle, u_y), SPINEGPU_MEMBER(GpuTriangle, v_y),
          SPINEGPU_MEMBER(GpuTriangle, flags), SPINEGPU_MEMBER(GpuTriangle, light), SPINEGPU_MEMBER(GpuTriangle, dark),
          SPINEGPU_MEMBER(GpuTriangle, material), SPINEGPU_MEMBER(GpuTriangle, clip_first)}},
        {"GpuCharacterTiles", sizeof(GpuCharacterTiles),
         {SPINEGPU_MEMBER(GpuCharacterTiles, mask_first), SPINEGPU_MEMBER(GpuCharacterTiles, tile_origin),
          SPINEGPU_MEMBER(GpuCharacterTiles, tile_extent), SPINEGPU_MEMBER(GpuCharacterTiles, words)}},
        {"GpuDrawCommand", sizeof(GpuDrawCommand),
         {SPINEGPU_MEMBER(GpuDrawCommand, index_count), SPINEGPU_MEMBER(GpuDrawCommand, instance_count),
          SPINEGPU_MEMBER(GpuDrawCommand, first_index), SPINEGPU_MEMBER(GpuDrawCommand, vertex_offset),
          SPINEGPU_MEMBER(GpuDrawCommand, first_instance)}},
    };
}

const StructLayout* find_layout(const std::vector<StructLayout>& layouts, const std::string& name) {
    for (const StructLayout& l : layouts)
        if (l.name == name) return &l;
    return nullptr;
}

const char* const k_shaders[] = {"skin.comp",        "draw.vert",
                                 "draw.frag",        "collapse.vert",
                                 "raster.comp",      "raster_onto.comp",
                                 "triangles.comp",   "places.comp",
                                 "raster_onto_unformatted.comp"};

// The compiled shaders: the build's (SPINEGPU_SHADER_DIR), or $SPINEGPU_SHADER_DIR when set.
std::string shader_dir() {
    if (const char* env = std::getenv("SPINEGPU_SHADER_DIR"); env && *env) return env;
    return SPINEGPU_SHADER_DIR;
}

// Reflects `name`.spv, failing the test (returning false) when it cannot or, with `need_names`, when the module
// carries no names (structs are compared by name: glslc -O strips names unless -g is given).
bool reflect(const std::string& name, ReflectedShader& out, bool need_names = true) {
    std::string error;
    const std::string path = shader_dir() + "/" + name + ".spv";
    if (!reflect_shader(path, out, error)) {
        ADD_FAILURE() << error;
        return false;
    }
    if (!need_names) return true;
    for (const ReflectedBuffer& b : out.buffers)
        if (b.block.empty() || (b.struct_array && b.element.name.empty())) {
            ADD_FAILURE() << path << " has no debug names (OpName/OpMemberName), so its structs cannot be compared "
                                     "by name: compile the reflection .spv with glslc -g (cmake/shaders.cmake)";
            return false;
        }
    return true;
}

// The shader's element layout of the buffer whose elements are `element`, or null.
const StructLayout* shader_element(const ReflectedShader& shader, const std::string& element) {
    for (const ReflectedBuffer& b : shader.buffers)
        if (b.struct_array && b.element.name == element) return &b.element;
    return nullptr;
}

TEST(GpuLayout, every_shared_struct_matches_the_compiled_shaders) {
    const std::vector<StructLayout> layouts = cpp_layouts();
    std::set<std::string> checked;
    for (const char* name : k_shaders) {
        ReflectedShader shader;
        if (!reflect(name, shader)) continue;
        for (const ReflectedBuffer& b : shader.buffers) {
            if (!b.struct_array) continue;
            const StructLayout* cpp = find_layout(layouts, b.element.name);
            if (cpp == nullptr) {
                ADD_FAILURE() << name << ": buffer " << b.block << " holds struct " << b.element.name
                              << ", which the C++ layout table lacks";
                continue;
            }
            for (const std::string& problem : compare_layout(*cpp, b.element)) ADD_FAILURE() << name << ": " << problem;
            checked.insert(b.element.name);
        }
    }
    // Each shared struct is read or written by some shader; a struct checked nowhere would pass unseen.
    for (const StructLayout& l : layouts) EXPECT_TRUE(checked.count(l.name)) << l.name << " found in no shader";
}

TEST(GpuLayout, layout_check_reports_a_wrong_offset_a_missing_member_and_an_extra_member) {
    ReflectedShader skin;
    ASSERT_TRUE(reflect("skin.comp", skin));
    const StructLayout* shader = shader_element(skin, "GpuAttachment");
    ASSERT_NE(shader, nullptr);
    const StructLayout right = *find_layout(cpp_layouts(), "GpuAttachment");
    ASSERT_TRUE(compare_layout(right, *shader).empty());

    StructLayout wrong_offset = right;
    wrong_offset.members.back().offset -= 4;  // color where material is
    std::vector<std::string> problems = compare_layout(wrong_offset, *shader);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("color"), std::string::npos) << problems[0];

    StructLayout missing = right;
    missing.members.erase(missing.members.begin() + 4);  // influence_first
    problems = compare_layout(missing, *shader);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("influence_first"), std::string::npos) << problems[0];

    StructLayout extra = right;
    extra.members.push_back({"padding", 32});
    extra.size = 36;
    problems = compare_layout(extra, *shader);
    EXPECT_EQ(problems.size(), 2u);  // the size and the member
}

TEST(GpuLayout, push_constant_blocks_have_the_sizes_the_renderer_pushes) {
    // renderer.cpp pushes {character_count, row_width} to the skinning pass, {character_count} to the places
    // pass, {scale, ox, oy, width, height} to the draw and a GpuTilePush to the tile rasterizer's passes;
    // renderer_setup.cpp declares ranges of sizeof(GpuTilePush) bytes for compute and 20 for the draw.
    const std::map<std::string, std::uint32_t> expected{
        {"skin.comp", 8},
        {"draw.vert", 20},
        {"draw.frag", 20},
        {"collapse.vert", 20},
        {"raster.comp", sizeof(GpuTilePush)},
        {"raster_onto.comp", sizeof(GpuTilePush)},
        {"raster_onto_unformatted.comp", sizeof(GpuTilePush)},
        {"triangles.comp", sizeof(GpuTilePush)},
        {"places.comp", 4}};
    for (const auto& [name, size] : expected) {
        ReflectedShader shader;
        if (!reflect(name, shader, false)) continue;
        ASSERT_EQ(shader.push_constant_sizes.size(), 1u) << name;
        EXPECT_EQ(shader.push_constant_sizes[0], size) << name;
    }
}

TEST(GpuLayout, compute_workgroups_are_the_shared_constants) {
    // The skinning pass's prefix sum, the triangle pass's dispatch size, the tile rasterizer's pixel-per-thread
    // mapping and the places pass's scan assume them.
    const std::map<std::string, std::uint32_t> expected{{"skin.comp", k_skin_workgroup},
                                                        {"triangles.comp", k_triangle_workgroup},
                                                        {"raster.comp", k_tile_size},
                                                        {"raster_onto.comp", k_tile_size},
                                                        {"raster_onto_unformatted.comp", k_tile_size},
                                                        {"places.comp", k_places_workgroup}};
    for (const auto& [name, size] : expected) {
        ReflectedShader shader;
        ASSERT_TRUE(reflect(name, shader, false));
        EXPECT_EQ(shader.local_size_x, size) << name;
    }
}

TEST(GpuLayout, the_skinning_pass_uses_the_shared_memory_the_renderer_counts_for_its_slots) {
    // The renderer sizes the skinning pass to the device from skin_shared_memory_bytes: it must be what skin.comp
    // declares at each capacity.
    for (const std::uint32_t slots : {k_small_slot_capacity, skin_slot_capacity(16384), k_max_slots}) {
        std::uint64_t bytes = 0;
        std::string error;
        ASSERT_TRUE(workgroup_bytes(shader_dir() + "/skin.comp.spv", 0, slots, bytes, error)) << error;
        EXPECT_EQ(bytes, skin_shared_memory_bytes(slots)) << slots << " slots";
    }
    EXPECT_EQ(skin_slot_capacity(16384), 661u);
    EXPECT_LE(skin_shared_memory_bytes(661), 16384u);
    EXPECT_GT(skin_shared_memory_bytes(662), 16384u);
    EXPECT_EQ(skin_slot_capacity(skin_shared_memory_bytes(k_max_slots)), k_max_slots);
    EXPECT_EQ(skin_slot_capacity(skin_shared_memory_bytes(k_max_slots) - 1), k_max_slots - 1);
    EXPECT_EQ(skin_slot_capacity(1u << 20), k_max_slots);
}

TEST(GpuLayout, descriptor_bindings_are_the_renderers_binding_enum) {
    const std::map<std::string, Binding> buffers{
        {"Influences", b_influences}, {"BindVertices", b_bind_vertices}, {"StaticIndices", b_static_indices},
        {"Attachments", b_attachments}, {"Types", b_types},               {"SlotSetups", b_slot_setups},
        {"Characters", b_characters}, {"Bones", b_bones},                 {"Words", b_words},
        {"OutVertices", b_out_vertices}, {"OutIndices", b_out_indices}, {"VertexOwners", b_vertex_owners},
        {"TileBits", b_tile_bits},      {"Counters", b_counters},
        {"Triangles", b_triangles},     {"TriangleBoxes", b_triangle_boxes},
        {"CharacterTiles", b_character_tiles}, {"TileMasks", b_tile_masks},
        {"PackedCharacters", b_packed_characters}, {"PlaceBlocks", b_place_blocks},
        {"DrawCommand", b_draw_command}, {"PageFilters", b_page_filters}, {"SetupLists", b_setup_lists}};
    const std::map<std::string, Binding> images{
        {"pages", b_pages}, {"pages_nearest", b_pages_nearest}, {"pages_srgb", b_pages_srgb},
        {"pages_srgb_nearest", b_pages_srgb_nearest}, {"target", b_target}};
    std::set<std::string> seen;
    for (const char* name : k_shaders) {
        ReflectedShader shader;
        if (!reflect(name, shader)) continue;
        for (const ReflectedBuffer& b : shader.buffers) {
            auto it = buffers.find(b.block);
            if (it == buffers.end()) {
                ADD_FAILURE() << name << ": storage buffer " << b.block << " is not in the Binding enum";
                continue;
            }
            EXPECT_EQ(b.set, 0u) << name << " " << b.block;
            EXPECT_EQ(b.binding, static_cast<std::uint32_t>(it->second)) << name << " " << b.block;
            seen.insert(b.block);
        }
        for (const ReflectedImage& image : shader.images) {
            auto it = images.find(image.name);
            if (it == images.end()) {
                ADD_FAILURE() << name << ": image " << image.name << " is not in the Binding enum";
                continue;
            }
            EXPECT_EQ(image.set, 0u) << name;
            EXPECT_EQ(image.binding, static_cast<std::uint32_t>(it->second)) << name << " " << image.name;
            seen.insert(image.name);
        }
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(b_count)) << "a binding of the enum is used by no shader";
}

}  // namespace
}  // namespace spinegpu::test
