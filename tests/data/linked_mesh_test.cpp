// Linked meshes, which both loaders resolve through one function (src/data/linked_meshes.cpp): a linked mesh takes
// its parent's geometry whatever order the two are listed in, chains of linked meshes resolve, and a cycle is an
// error in either format, named where the format names places.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "binary_skel_fixture.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu {
namespace {

const AttachmentData& attachment(const SkeletonData& d, const char* key) {
    Index index = d.find_skin_attachment(d.default_skin, d.slot_names.find("s"), d.attachment_names.find(key));
    EXPECT_NE(index, k_none) << key;
    return d.attachments[static_cast<std::size_t>(index == k_none ? 0 : index)];
}

TEST(LinkedMesh, json_linked_mesh_chain_resolves_whatever_the_listing_order) {
    // "a" links to "b", which links to the mesh "m"; both links are listed before their parents.
    const std::string json = R"({"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
      "slots": [{"name": "s", "bone": "root"}],
      "skins": [{"name": "default", "attachments": {"s": {
        "a": {"type": "linkedmesh", "parent": "b", "timelines": false},
        "b": {"type": "linkedmesh", "parent": "m"},
        "m": {"type": "mesh", "uvs": [0,0, 1,0, 1,1, 0,1], "triangles": [0,1,2, 0,2,3],
              "vertices": [0,0, 8,0, 8,8, 0,8], "hull": 4}}}}]})";
    Result<SkeletonData> r = load_skeleton_json(json, "chain.json");
    ASSERT_TRUE(r.ok()) << r.error().message();
    const SkeletonData& d = *r;
    const AttachmentData& a = attachment(d, "a");
    const AttachmentData& b = attachment(d, "b");
    const AttachmentData& m = attachment(d, "m");
    for (const AttachmentData* linked : {&a, &b}) {
        EXPECT_EQ(linked->world_vertices_length, 8u);
        EXPECT_EQ(linked->vertices.offset, m.vertices.offset);
        EXPECT_EQ(linked->region_uvs.offset, m.region_uvs.offset);
        EXPECT_EQ(linked->triangles.offset, m.triangles.offset);
        EXPECT_EQ(linked->triangles.count, 6u);
        EXPECT_EQ(linked->hull_length, 8u);
    }
    EXPECT_EQ(&d.attachments[static_cast<std::size_t>(a.parent_mesh)], &b);
    EXPECT_EQ(&d.attachments[static_cast<std::size_t>(b.parent_mesh)], &m);
    EXPECT_EQ(&d.attachments[static_cast<std::size_t>(a.timeline_attachment)], &a);  // "timelines": false
    EXPECT_EQ(&d.attachments[static_cast<std::size_t>(b.timeline_attachment)], &m);
}

TEST(LinkedMesh, binary_linked_mesh_that_is_its_own_parent_is_a_cycle_at_its_skin_index) {
    test::SkelFixture f;
    f.linked_skin = 1;  // skin2, which holds the linked mesh "linked" itself
    f.linked_parent = test::s_linked;
    std::vector<std::uint8_t> bytes = f.build();
    Result<SkeletonData> r = load_skeleton_binary(bytes, "cycle.skel");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "byte " + std::to_string(f.w.marks.at("linked skin"))) << r.error().message();
    EXPECT_NE(r.error().what.find("linked mesh \"linked\": linked meshes form a cycle through \"linked\""),
              std::string::npos)
        << r.error().message();
}

}  // namespace
}  // namespace spinegpu
