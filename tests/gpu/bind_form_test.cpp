// The bind form (static_skeleton.cpp) keeps what the files say, and the skinning pass, fed only the bind form and
// one packed frame (frame_packer.cpp), reproduces the runtime's world vertices: deform, sequences, weights with
// more than four bones, clipping polygons and draw order included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "skin_shader_model.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

// Checks every weighted vertex of every attachment frame in the bind form against the file's data; returns the most
// influences one vertex has.
std::uint32_t expect_weighted_vertices_kept(const StaticSkeleton& type, const SkeletonData& data,
                                            const std::string& name) {
    std::uint32_t most = 0;
    int failures = 0;
    for (std::size_t i = 0; i < data.attachments.size(); ++i) {
        const AttachmentData& a = data.attachments[i];
        if (a.bones.count == 0 || type.first_id[i] == k_no_attachment) continue;
        const Index* bones = data.indices.data() + a.bones.offset;
        const float* v = data.floats.data() + a.vertices.offset;
        for (std::uint32_t frame = 0; frame < type.frame_count[i]; ++frame) {
            const GpuAttachment& g = type.attachments[type.first_id[i] + frame];
            if (g.vertex_count != a.world_vertices_length / 2) {
                ADD_FAILURE() << name << " attachment " << i << ": " << g.vertex_count << " vertices, file "
                              << a.world_vertices_length / 2;
                continue;
            }
            EXPECT_TRUE(g.material & k_material_weighted_bit) << name << " attachment " << i;
            std::uint32_t b = 0, f = 0;
            for (std::uint32_t vertex = 0; vertex < g.vertex_count; ++vertex) {
                const GpuBindVertex& bv = type.vertices[g.vertex_first + vertex];
                const auto n = static_cast<std::uint32_t>(bones[b++]);
                most = std::max(most, n);
                EXPECT_EQ(bv.influence_count, n) << name << " attachment " << i << " vertex " << vertex;
                EXPECT_EQ(bv.influence_first, g.influence_first + f / 3) << name << " attachment " << i;
                double file_sum = 0, bind_sum = 0;
                for (std::uint32_t k = 0; k < n && k < bv.influence_count; ++k, ++b, f += 3) {
                    const GpuInfluence& inf = type.influences[bv.influence_first + k];
                    const bool same = type.drawn_bones[inf.bone] == bones[b] && inf.x == v[f] && inf.y == v[f + 1] &&
                                      inf.weight == v[f + 2];
                    if (!same && failures++ < 10)
                        ADD_FAILURE() << name << " attachment " << i << " vertex " << vertex << " influence " << k
                                      << ": bone " << type.drawn_bones[inf.bone] << " (" << inf.x << ", " << inf.y
                                      << ") w " << inf.weight << ", file: bone " << bones[b] << " (" << v[f] << ", "
                                      << v[f + 1] << ") w " << v[f + 2];
                    file_sum += v[f + 2];
                    bind_sum += inf.weight;
                }
                b += n > bv.influence_count ? n - bv.influence_count : 0;
                EXPECT_EQ(bind_sum, file_sum) << name << " attachment " << i << " vertex " << vertex;
            }
        }
    }
    return most;
}

TEST(BindForm, weighted_vertices_keep_every_influence_of_the_examples) {
    SPINEGPU_REQUIRE_EXAMPLES();
    std::uint32_t spineboy_most = 0;
    for (const ExampleSkeleton& e : example_skeletons()) {
        auto t = load_gpu_type(e.binary.string(), e.atlas.string());
        if (!t) continue;
        const std::uint32_t most = expect_weighted_vertices_kept(t->type, t->data(), e.binary.filename().string());
        if (e.binary.filename() == "spineboy-pro.skel") spineboy_most = most;
    }
    EXPECT_EQ(spineboy_most, 5u) << "spineboy-pro's head has a vertex weighted to 5 bones";
}

// A mesh whose first vertex is weighted to six bones (weights 0.1 0.2 0.1 0.25 0.15 0.2), the second to one and
// the third to two, on bones rotated and scaled apart.
constexpr const char* k_six_bone_skeleton = R"({"skeleton": {"spine": "4.2.00"},
"bones": [{"name": "root"},
  {"name": "b1", "parent": "root", "x": 10, "rotation": 15},
  {"name": "b2", "parent": "root", "y": 20, "rotation": 40, "scaleX": 1.5},
  {"name": "b3", "parent": "b1", "x": 5, "y": -7, "rotation": -30},
  {"name": "b4", "parent": "b2", "x": -12, "rotation": 90, "scaleY": 0.5},
  {"name": "b5", "parent": "b3", "x": 3, "y": 3, "shearX": 10},
  {"name": "b6", "parent": "b4", "x": 8, "rotation": 200}],
"slots": [{"name": "s", "bone": "root", "attachment": "m"}],
"skins": [{"name": "default", "attachments": {"s": {"m": {"type": "mesh", "uvs": [0,0, 1,0, 1,1],
  "triangles": [0,1,2],
  "vertices": [6, 1, 1,2,0.1, 2, 3,4,0.2, 3, 5,6,0.1, 4, 7,8,0.25, 5, 9,10,0.15, 6, 11,12,0.2,
               1, 3, 20,-4,1,
               2, 2, -6,9,0.5, 6, 2,2,0.5]}}}}]})";

constexpr const char* k_six_bone_atlas = "six.png\nsize: 64, 64\nm\n  bounds: 0, 0, 32, 32\n";

TEST(BindForm, six_bone_vertex_keeps_all_six_influences_and_skins_like_the_runtime) {
    Result<SkeletonData> data = load_skeleton_json(k_six_bone_skeleton, "six_bones.json");
    ASSERT_TRUE(data.ok()) << data.error().message();
    Result<Atlas> atlas = parse_atlas(k_six_bone_atlas, "six.atlas");
    ASSERT_TRUE(atlas.ok()) << atlas.error().message();
    Result<AtlasBinding> binding = bind_atlas(*data, *atlas);
    ASSERT_TRUE(binding.ok()) << binding.error().message();
    Result<StaticSkeleton> type = build_static_skeleton(*data, *atlas, *binding, layer_per_page(*atlas), "six");
    ASSERT_TRUE(type.ok()) << type.error().message();

    EXPECT_EQ(expect_weighted_vertices_kept(*type, *data, "six_bones.json"), 6u);
    ASSERT_EQ(type->attachments.size(), 1u);
    ASSERT_EQ(type->vertices.size(), 3u);
    EXPECT_EQ(type->vertices[0].influence_count, 6u);
    EXPECT_EQ(type->vertices[1].influence_count, 1u);
    EXPECT_EQ(type->vertices[2].influence_count, 2u);
    EXPECT_EQ(type->influences.size(), 9u);

    SkeletonPose pose = create_pose(*data);
    update_world_transform(pose, Physics::none);
    PackedFrame frame(*type, *data, 1);
    pack_character(*type, 0, pose, Color{}, frame.cursor);
    SkinOutput out;
    run_skin_pass(*type, 1, frame.characters[0], frame.bones.data(), frame.words.data(), out);
    std::vector<float> world(6);
    ASSERT_EQ(compute_world_vertices(pose, *binding, 0, world), 6u);
    ASSERT_EQ(out.vertices.size(), 3u);
    for (std::uint32_t v = 0; v < 3; ++v) {
        EXPECT_NEAR(out.vertices[v].x, world[2 * v], 1e-3f * std::max(1.0f, std::abs(world[2 * v]))) << v;
        EXPECT_NEAR(out.vertices[v].y, world[2 * v + 1], 1e-3f * std::max(1.0f, std::abs(world[2 * v + 1]))) << v;
    }
}

std::uint32_t type_vertex_influences(const StaticSkeleton& type, std::uint32_t attachment, std::uint32_t v) {
    return type.vertices[type.attachments[attachment].vertex_first + v].influence_count;
}

// What one comparison of a skeleton covered.
struct Coverage {
    std::uint64_t vertices = 0, deformed_slots = 0, sequence_frames = 0, clip_polygons = 0, many_bone_vertices = 0;
};

// Packs `pose`, runs the skinning model on it and compares every shown attachment's vertices with the runtime's
// compute_world_vertices. Also checks that the draw list follows the pose's draw order and drops nothing the
// runtime would draw. Returns false after the first few failures.
bool expect_pass_matches_runtime(const GpuType& t, const SkeletonPose& pose, const std::string& where,
                                 Coverage& coverage) {
    const SkeletonData& data = t.data();
    const auto slots = static_cast<std::uint32_t>(data.slots.size());
    PackedFrame frame(t.type, data, 1);
    pack_character(t.type, 0, pose, Color{}, frame.cursor);
    SkinOutput out;
    const std::vector<SkinnedPosition> shown =
        run_skin_pass(t.type, slots, frame.characters[0], frame.bones.data(), frame.words.data(), out);
    std::vector<float> world(std::max<std::uint32_t>(t.type.max_vertex_floats, 8));
    int failures = 0;
    std::size_t next = 0;
    for (std::uint32_t p = 0; p < slots; ++p) {
        const Index slot = pose.draw_order[p];
        const auto s = static_cast<std::size_t>(slot);
        const Index attachment = pose.slots[s].attachment;
        const bool active = pose.bone_active[static_cast<std::size_t>(data.slots[s].bone)] != 0;
        const AttachmentType kind = attachment == k_none ? AttachmentType::point
                                                         : data.attachments[static_cast<std::size_t>(attachment)].type;
        const bool drawn = active && (kind == AttachmentType::region || kind == AttachmentType::mesh ||
                                      kind == AttachmentType::clipping);
        const bool listed = next < shown.size() && shown[next].position == p;
        if (!drawn) {
            // Only a clip's end marker (no vertices) may stand at a position that draws nothing.
            if (listed) {
                EXPECT_EQ(shown[next++].vertex_count, 0u) << where << " position " << p;
            }
            continue;
        }
        if (!listed) {
            ADD_FAILURE() << where << ": slot " << data.slot_names[slot] << " draws but is not in the draw list";
            if (++failures > 5) return false;
            continue;
        }
        const SkinnedPosition& sp = shown[next++];
        EXPECT_EQ(sp.slot, static_cast<std::uint32_t>(slot)) << where << " position " << p;
        const std::uint32_t floats = compute_world_vertices(pose, t.loaded->binding, slot, world);
        EXPECT_EQ(sp.vertex_count * 2, floats) << where << " slot " << data.slot_names[slot];
        if (sp.vertex_count * 2 != floats) continue;
        for (std::uint32_t v = 0; v < sp.vertex_count; ++v) {
            const GpuOutVertex& o = out.vertices[sp.vertex_base + v];
            const float x = world[2 * v], y = world[2 * v + 1];
            if (std::abs(o.x - x) > 1e-3f * std::max(1.0f, std::abs(x)) ||
                std::abs(o.y - y) > 1e-3f * std::max(1.0f, std::abs(y))) {
                ADD_FAILURE() << where << " slot " << data.slot_names[slot] << " vertex " << v << ": pass (" << o.x
                              << ", " << o.y << "), runtime (" << x << ", " << y << ")";
                if (++failures > 5) return false;
                break;
            }
            if (type_vertex_influences(t.type, sp.attachment, v) > 4) ++coverage.many_bone_vertices;
        }
        coverage.vertices += sp.vertex_count;
        if (pose.slots[s].deform_count > 0) ++coverage.deformed_slots;
        const auto a = static_cast<std::size_t>(attachment);
        if (t.type.frame_count[a] > 1 && sp.attachment != t.type.first_id[a]) ++coverage.sequence_frames;
        if (kind == AttachmentType::clipping) ++coverage.clip_polygons;
    }
    EXPECT_EQ(next, shown.size()) << where << ": the draw list shows more than the draw order";
    return failures == 0;
}

TEST(BindForm, skinning_pass_model_reproduces_the_runtimes_world_vertices) {
    SPINEGPU_REQUIRE_EXAMPLES();
    constexpr double k_dt = 1.0 / 60;
    constexpr int k_steps[] = {1, 13, 27, 40};
    Coverage total;
    for (const ExampleSkeleton& e : example_skeletons()) {
        auto t = load_gpu_type(e.binary.string(), e.atlas.string());
        if (!t) continue;
        const std::string file = e.binary.filename().string();
        const Index skin = showcase_skin(t->data());
        Coverage coverage;
        bool ok = true;
        for (Index animation = 0; ok && animation < static_cast<Index>(t->data().animations.size()); ++animation) {
            Player player(t->data(), skin, animation);
            for (int step = 1; ok && step <= k_steps[3]; ++step) {
                player.step(k_dt);
                if (std::find(std::begin(k_steps), std::end(k_steps), step) == std::end(k_steps)) continue;
                ok = expect_pass_matches_runtime(*t, player.pose,
                                                 file + " " + t->data().animation_names[animation] + " step " +
                                                     std::to_string(step),
                                                 coverage);
            }
        }
        std::cout << file << ": " << coverage.vertices << " vertices compared, " << coverage.deformed_slots
                  << " deformed slots, " << coverage.sequence_frames << " sequence frames past the first, "
                  << coverage.clip_polygons << " clipping polygons, " << coverage.many_bone_vertices
                  << " vertices with more than 4 bones\n";
        if (file == "goblins-pro.skel") {
            EXPECT_GT(coverage.deformed_slots, 0u) << "goblins has deform timelines";
        } else if (file == "dragon-ess.skel") {
            EXPECT_GT(coverage.sequence_frames, 0u) << "dragon has sequences";
        } else if (file == "spineboy-pro.skel") {
            EXPECT_GT(coverage.many_bone_vertices, 0u);
        }
        total.vertices += coverage.vertices;
        total.clip_polygons += coverage.clip_polygons;
    }
    EXPECT_GT(total.vertices, 0u);
    EXPECT_GT(total.clip_polygons, 0u);
}

// Each atlas filter pair gives the filter word OpenGL (spine-webgl) would sample with: the min filter's texel filter
// and mipmap mode, the mag filter's texel filter (a mipmap filter there is Linear), and mipmaps only when the min
// filter samples them.
TEST(BindForm, page_filter_words_follow_the_atlas_filters_as_opengl_reads_them) {
    using F = TextureFilter;
    struct Case { F min, mag; std::uint32_t word; };
    const std::uint32_t nearest_mips = k_page_mip_nearest << k_page_mip_shift;
    const std::uint32_t linear_mips = k_page_mip_linear << k_page_mip_shift;
    const Case cases[] = {
        {F::linear, F::linear, 0u},
        {F::nearest, F::nearest, k_page_min_nearest_bit | k_page_mag_nearest_bit},
        {F::nearest, F::linear, k_page_min_nearest_bit},
        {F::linear, F::nearest, k_page_mag_nearest_bit},
        {F::mip_map, F::linear, linear_mips},
        {F::mip_map_linear_linear, F::linear, linear_mips},
        {F::mip_map_nearest_linear, F::nearest, k_page_min_nearest_bit | linear_mips | k_page_mag_nearest_bit},
        {F::mip_map_linear_nearest, F::linear, nearest_mips},
        {F::mip_map_nearest_nearest, F::nearest, k_page_min_nearest_bit | nearest_mips | k_page_mag_nearest_bit},
        {F::linear, F::mip_map_nearest_nearest, 0u},
    };
    for (const Case& c : cases) {
        AtlasPage page;
        page.min_filter = c.min;
        page.mag_filter = c.mag;
        EXPECT_EQ(page_filter_word(page), c.word) << int(c.min) << " " << int(c.mag);
        EXPECT_EQ(filters_make_mipmaps(c.word), (c.word >> k_page_mip_shift) != k_page_mip_none);
        const bool alike = c.word == 0 || c.word == (k_page_min_nearest_bit | k_page_mag_nearest_bit);
        EXPECT_EQ(filters_depend_on_scale(c.word), !alike);
    }
}

}  // namespace
}  // namespace spinegpu::test
