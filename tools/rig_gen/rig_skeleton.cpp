// Bones, slots, attachments, constraints and events of the demo rig.
#include "rig_skeleton.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace spinegpu::rig {

// ---------------------------------------------------------------------------------------------------------------
// Skeleton

void Skeleton::add(BoneDef bone) {
    if (!bone.parent.empty()) (void)index(bone.parent);
    bones_.push_back(std::move(bone));
}

int Skeleton::index(std::string_view name) const {
    for (std::size_t i = 0; i < bones_.size(); ++i)
        if (bones_[i].name == name) return static_cast<int>(i);
    throw std::runtime_error("no bone " + std::string(name));
}

Frame Skeleton::frame(std::string_view name) const {
    const BoneDef& b = bone(name);
    return {b.world, b.world_rotation};
}

Vec2 Skeleton::local_position(std::string_view name) const {
    const BoneDef& b = bone(name);
    return b.parent.empty() ? b.world : frame(b.parent).to_local(b.world);
}

namespace {

double normalize_degrees(double deg) {
    while (deg > 180) deg -= 360;
    while (deg <= -180) deg += 360;
    return deg;
}

}  // namespace

double Skeleton::local_rotation(std::string_view name) const {
    const BoneDef& b = bone(name);
    if (b.parent.empty() || b.no_rotation) return b.world_rotation;
    return normalize_degrees(b.world_rotation - bone(b.parent).world_rotation);
}

// ---------------------------------------------------------------------------------------------------------------
// Bones and slots

Skeleton build_bones() {
    using namespace design;
    Skeleton s;
    auto at_end = [&s](const char* parent) {
        const BoneDef& p = s.bone(parent);
        return s.frame(parent).to_world({p.length, 0});
    };
    s.add({"root", "", {0, 0}, 0, 0});
    s.add({"shadow", "root", {0, 0}, 0, 0});
    s.add({"hip", "root", hip, 90, 8});
    s.add({"torso", "hip", torso, 90, 42});
    s.add({"neck", "torso", neck, 90, 8});
    s.add({"head", "neck", head, 90, 60});
    s.add({"face", "head", face_centre, 0, 12});
    s.add({"crest", "head", crest, 90, 30});
    s.add({"cape1", "torso", cape_top, -98, cape_lengths[0]});
    s.add({"cape2", "cape1", at_end("cape1"), -100, cape_lengths[1]});
    s.add({"cape3", "cape2", at_end("cape2"), -102, cape_lengths[2]});
    s.add({"back-upper-arm", "torso", back_shoulder, -100, upper_arm_length});
    s.add({"back-lower-arm", "back-upper-arm", at_end("back-upper-arm"), -80, lower_arm_length});
    s.add({"back-hand", "back-lower-arm", at_end("back-lower-arm"), -80, hand_length});
    s.add({"front-upper-arm", "torso", front_shoulder, -80, upper_arm_length});
    s.add({"front-lower-arm", "front-upper-arm", at_end("front-upper-arm"), -55, lower_arm_length});
    s.add({"front-hand", "front-lower-arm", at_end("front-lower-arm"), -55, hand_length});
    s.add({"sword", "front-hand", s.frame("front-hand").to_world({6.5, 0.5}), 50, 100});
    s.add({"back-thigh", "hip", back_hip, -80, thigh_length});
    s.add({"back-shin", "back-thigh", at_end("back-thigh"), -104, shin_length});
    s.add({"back-foot", "back-shin", at_end("back-shin"), 0, 18, true});
    s.add({"front-thigh", "hip", front_hip, -78, thigh_length});
    s.add({"front-shin", "front-thigh", at_end("front-thigh"), -102, shin_length});
    s.add({"front-foot", "front-shin", at_end("front-shin"), 0, 18, true});
    // IK targets exactly where the setup pose puts the ankles, so the solved setup pose is the drawn one.
    s.add({"back-foot-ik", "root", at_end("back-shin"), 0, 0});
    s.add({"front-foot-ik", "root", at_end("front-shin"), 0, 0});
    return s;
}

std::vector<SlotDef> build_slots() {
    const std::string back = "c9c2dcff";  // limbs on the far side are a little darker
    return {
        {"shadow", "shadow", "shadow", "", "", "multiply"},
        {"cape", "cape1", "cape", "", "", ""},
        {"back-upper-arm", "back-upper-arm", "upper-arm", back, "", ""},
        {"back-lower-arm", "back-lower-arm", "lower-arm", back, "", ""},
        {"back-hand", "back-hand", "hand", back, "", ""},
        {"back-thigh", "back-thigh", "thigh", back, "", ""},
        {"back-shin", "back-shin", "shin", back, "", ""},
        {"back-foot", "back-foot", "boot", back, "", ""},
        {"torso", "torso", "torso", "", "", ""},
        {"gem", "torso", "gem", "e8e0e8ff", "", ""},
        {"front-thigh", "front-thigh", "thigh", "", "", ""},
        {"front-shin", "front-shin", "shin", "", "", ""},
        {"front-foot", "front-foot", "boot", "", "", ""},
        {"crest", "crest", "flame", "", "", ""},
        {"helmet", "head", "helmet", "", "", ""},
        {"face-clip", "head", "face-clip", "", "", ""},
        {"face", "face", "face", "", "", ""},
        {"eyes", "face", "eyes-open", "", "", ""},
        {"mouth", "face", "mouth-smile", "", "", ""},
        {"visor-rim", "head", "visor-rim", "", "", ""},
        {"crest-glow", "crest", "crest-glow", "ffffffcc", "", "additive"},
        {"sword", "sword", "sword", "", "000000", ""},
        {"front-upper-arm", "front-upper-arm", "upper-arm", "", "", ""},
        {"front-lower-arm", "front-lower-arm", "lower-arm", "", "", ""},
        {"front-hand", "front-hand", "hand", "", "", ""},
    };
}

// ---------------------------------------------------------------------------------------------------------------
// Meshes

namespace {

// A grid of nx x ny cells over `rect`: the outline vertices first (counter-clockwise from the bottom left), then
// the interior ones; two triangles per cell.
MeshDef grid_mesh(design::Rect rect, int nx, int ny) {
    MeshDef m;
    m.rect = rect;
    std::vector<int> index_of(static_cast<std::size_t>((nx + 1) * (ny + 1)), -1);
    auto id = [nx](int i, int j) { return static_cast<std::size_t>(j * (nx + 1) + i); };
    auto add = [&](int i, int j) {
        if (index_of[id(i, j)] >= 0) return;
        index_of[id(i, j)] = static_cast<int>(m.world.size());
        m.world.push_back({rect.x + rect.w * i / nx, rect.y + rect.h * j / ny});
    };
    for (int i = 0; i < nx; ++i) add(i, 0);
    for (int j = 0; j < ny; ++j) add(nx, j);
    for (int i = nx; i > 0; --i) add(i, ny);
    for (int j = ny; j > 0; --j) add(0, j);
    m.hull = static_cast<int>(m.world.size());
    for (int j = 1; j < ny; ++j)
        for (int i = 1; i < nx; ++i) add(i, j);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            int a = index_of[id(i, j)], b = index_of[id(i + 1, j)], c = index_of[id(i + 1, j + 1)],
                d = index_of[id(i, j + 1)];
            // Alternate the diagonal so the grid bends symmetrically.
            if ((i + j) % 2 == 0) {
                m.triangles.insert(m.triangles.end(), {a, b, c, a, c, d});
            } else {
                m.triangles.insert(m.triangles.end(), {a, b, d, b, c, d});
            }
        }
    return m;
}

// Weights from anchors along y: between two anchors a vertex blends their bones linearly.
std::vector<std::pair<int, double>> weights_along_y(double y, const std::vector<std::pair<double, int>>& anchors) {
    // anchors sorted by descending y
    if (y >= anchors.front().first) return {{anchors.front().second, 1.0}};
    for (std::size_t k = 0; k + 1 < anchors.size(); ++k) {
        auto [y0, b0] = anchors[k];
        auto [y1, b1] = anchors[k + 1];
        if (y <= y0 && y >= y1) {
            double t = (y0 - y) / (y0 - y1);
            double w1 = std::round(t * 10000) / 10000;
            if (w1 <= 0) return {{b0, 1.0}};
            if (w1 >= 1) return {{b1, 1.0}};
            return {{b0, 1 - w1}, {b1, w1}};
        }
    }
    return {{anchors.back().second, 1.0}};
}

}  // namespace

std::vector<double> MeshDef::deform(const Skeleton& skeleton, const std::vector<Vec2>& displacement) const {
    std::vector<double> out;
    for (std::size_t v = 0; v < world.size(); ++v)
        for (auto [bone, weight] : weights[v]) {
            (void)weight;
            Vec2 local = Frame{{}, skeleton.bones()[static_cast<std::size_t>(bone)].world_rotation}.dir_to_local(displacement[v]);
            out.push_back(local.x);
            out.push_back(local.y);
        }
    return out;
}

MeshDef torso_mesh(const Skeleton& skeleton) {
    MeshDef m = grid_mesh(design::torso_rect, 4, 5);
    m.slot = m.name = m.region = "torso";
    const int hip = skeleton.index("hip"), torso = skeleton.index("torso"), neck = skeleton.index("neck");
    for (Vec2 p : m.world) {
        auto w = weights_along_y(p.y, {{150, neck}, {102, torso}, {66, hip}});
        // The top row hangs on the torso and the neck together.
        if (p.y > 130) w = {{torso, 0.5}, {neck, 0.5}};
        m.weights.push_back(w);
    }
    return m;
}

MeshDef cape_mesh(const Skeleton& skeleton) {
    MeshDef m = grid_mesh(design::cape_rect, 3, 6);
    m.slot = m.name = m.region = "cape";
    auto mid_y = [&](const char* bone) {
        const BoneDef& b = skeleton.bone(bone);
        return skeleton.frame(bone).to_world({b.length / 2, 0}).y;
    };
    std::vector<std::pair<double, int>> anchors{{128, skeleton.index("torso")},
                                                {mid_y("cape1"), skeleton.index("cape1")},
                                                {mid_y("cape2"), skeleton.index("cape2")},
                                                {mid_y("cape3"), skeleton.index("cape3")}};
    for (Vec2 p : m.world) m.weights.push_back(weights_along_y(p.y, anchors));
    return m;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON

namespace {

const ArtRegion& find_art(const std::vector<ArtRegion>& art, std::string_view name) {
    for (const ArtRegion& a : art)
        if (a.name == name) return a;
    throw std::runtime_error("no art region " + std::string(name));
}

struct Bounds {
    double x0 = std::numeric_limits<double>::max(), y0 = x0, x1 = -x0, y1 = -x0;
    void add(Vec2 p) {
        x0 = std::min(x0, p.x);
        y0 = std::min(y0, p.y);
        x1 = std::max(x1, p.x);
        y1 = std::max(y1, p.y);
    }
};

// A region attachment showing `art`, whose art space has world frame `art_frame`, on bone `bone`.
Json region_json(const Skeleton& s, const ArtRegion& art, std::string_view bone, Frame art_frame, Bounds* bounds) {
    const Canvas& c = art.canvas;
    Vec2 centre_world = art_frame.to_world({c.x0() + c.width() / 2, c.y0() + c.height() / 2});
    Frame b = s.frame(bone);
    Vec2 local = b.to_local(centre_world);
    double rotation = normalize_degrees(art_frame.rotation - b.rotation);
    Json j = Json::object();
    if (local.x != 0) j.set("x", local.x);
    if (local.y != 0) j.set("y", local.y);
    if (std::abs(rotation) > 1e-9) j.set("rotation", rotation);
    j.set("width", c.width()).set("height", c.height());
    if (bounds)
        for (Vec2 corner : {Vec2{c.x0(), c.y0()}, Vec2{c.x0() + c.width(), c.y0()}, Vec2{c.x0(), c.y0() + c.height()},
                            Vec2{c.x0() + c.width(), c.y0() + c.height()}})
            bounds->add(art_frame.to_world(corner));
    return j;
}

Json mesh_json(const Skeleton& s, const MeshDef& m, Bounds* bounds) {
    std::vector<double> uvs, vertices;
    for (std::size_t v = 0; v < m.world.size(); ++v) {
        Vec2 p = m.world[v];
        uvs.push_back((p.x - m.rect.x) / m.rect.w);
        uvs.push_back(1 - (p.y - m.rect.y) / m.rect.h);
        vertices.push_back(static_cast<double>(m.weights[v].size()));
        for (auto [bone, weight] : m.weights[v]) {
            Vec2 local = s.frame(s.bones()[static_cast<std::size_t>(bone)].name).to_local(p);
            vertices.insert(vertices.end(), {static_cast<double>(bone), local.x, local.y, weight});
        }
        if (bounds) bounds->add(p);
    }
    Json j = Json::object();
    j.set("type", "mesh");
    j.set("uvs", Json::numbers(uvs));
    j.set("triangles", Json::numbers(m.triangles));
    j.set("vertices", Json::numbers(vertices));
    j.set("hull", m.hull);
    j.set("width", m.rect.w * k_art_scale).set("height", m.rect.h * k_art_scale);
    return j;
}

// The helmet's face opening as a polygon (world space), counter-clockwise.
std::vector<Vec2> face_opening_polygon() {
    using namespace design;
    std::vector<Vec2> out;
    const Vec2 inner = face_half - Vec2{face_corner, face_corner};
    const Vec2 corners[4] = {{inner.x, inner.y}, {-inner.x, inner.y}, {-inner.x, -inner.y}, {inner.x, -inner.y}};
    for (int k = 0; k < 4; ++k)
        for (int step = 0; step <= 4; ++step) {
            double angle = 90.0 * k + 22.5 * step;
            out.push_back(face_centre + corners[k] + dir(angle) * face_corner);
        }
    return out;
}

Json clipping_json(const Skeleton& s, std::string_view bone) {
    std::vector<double> vertices;
    Frame b = s.frame(bone);
    std::vector<Vec2> polygon = face_opening_polygon();
    for (Vec2 p : polygon) {
        Vec2 local = b.to_local(p);
        vertices.push_back(local.x);
        vertices.push_back(local.y);
    }
    Json j = Json::object();
    j.set("type", "clipping").set("end", "mouth").set("vertexCount", polygon.size());
    j.set("vertices", Json::numbers(vertices)).set("color", "ce3a3aff");
    return j;
}

std::string hash_text(const std::string& text) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (int i = 0; i < 11; ++i) {
        out += alphabet[h & 63];
        h >>= 6;
    }
    return out;
}

}  // namespace

Json skeleton_json(const Skeleton& s, const std::vector<ArtRegion>& art) {
    const Frame world{};
    Bounds bounds;
    Json skin_attachments = Json::object();
    const std::vector<SlotDef> slots = build_slots();
    auto add = [&](const std::string& slot, const std::string& name, Json attachment) {
        skin_attachments.at(slot).set(name, std::move(attachment));
    };
    auto limb = [&](const std::string& slot, const std::string& region) {
        // Limb art is drawn in bone space; the same region serves the near and the far limb.
        add(slot, region, region_json(s, find_art(art, region), slot, s.frame(slot), &bounds));
    };
    for (const SlotDef& slot : slots) {
        const std::string& n = slot.name;
        if (n == "shadow" || n == "gem" || n == "helmet" || n == "face" || n == "visor-rim" || n == "crest-glow") {
            add(n, slot.attachment, region_json(s, find_art(art, slot.attachment), slot.bone, world, &bounds));
        } else if (n == "cape") {
            add(n, "cape", mesh_json(s, cape_mesh(s), &bounds));
        } else if (n == "torso") {
            add(n, "torso", mesh_json(s, torso_mesh(s), &bounds));
        } else if (n == "crest") {
            Json flame = region_json(s, find_art(art, "flame_00"), "crest", world, &bounds);
            flame.set("path", "flame_");
            Json sequence = Json::object();
            sequence.set("count", 4).set("start", 0).set("digits", 2);
            flame.set("sequence", std::move(sequence));
            add(n, "flame", std::move(flame));
        } else if (n == "face-clip") {
            add(n, "face-clip", clipping_json(s, slot.bone));
        } else if (n == "eyes") {
            for (const char* e : {"eyes-open", "eyes-closed", "eyes-angry"})
                add(n, e, region_json(s, find_art(art, e), "face", world, e == slot.attachment ? &bounds : nullptr));
        } else if (n == "mouth") {
            for (const char* m : {"mouth-smile", "mouth-open", "mouth-shout"})
                add(n, m, region_json(s, find_art(art, m), "face", world, nullptr));
        } else if (n == "sword") {
            add(n, "sword", region_json(s, find_art(art, "sword"), "sword", s.frame("sword"), &bounds));
        } else {
            limb(n, slot.attachment);
        }
    }

    Json root = Json::object();
    Json info = Json::object();
    info.set("hash", "");
    info.set("spine", "4.2.22");
    info.set("x", std::floor(bounds.x0 * 100) / 100).set("y", std::floor(bounds.y0 * 100) / 100);
    info.set("width", std::ceil((bounds.x1 - bounds.x0) * 100) / 100);
    info.set("height", std::ceil((bounds.y1 - bounds.y0) * 100) / 100);
    info.set("fps", 30).set("images", "./images/").set("audio", "./audio/");
    root.set("skeleton", std::move(info));

    Json bones = Json::array();
    for (const BoneDef& b : s.bones()) {
        Json j = Json::object();
        j.set("name", b.name);
        if (!b.parent.empty()) j.set("parent", b.parent);
        if (b.length != 0) j.set("length", b.length);
        double rotation = s.local_rotation(b.name);
        Vec2 p = s.local_position(b.name);
        if (std::abs(rotation) > 1e-9) j.set("rotation", rotation);
        if (std::abs(p.x) > 1e-9) j.set("x", p.x);
        if (std::abs(p.y) > 1e-9) j.set("y", p.y);
        if (b.no_rotation) j.set("inherit", "noRotationOrReflection");
        if (b.name.ends_with("-ik")) j.set("color", "ff3f00ff");
        bones.push(std::move(j));
    }
    root.set("bones", std::move(bones));

    Json slot_array = Json::array();
    for (const SlotDef& slot : slots) {
        Json j = Json::object();
        j.set("name", slot.name).set("bone", slot.bone);
        if (!slot.color.empty()) j.set("color", slot.color);
        if (!slot.dark.empty()) j.set("dark", slot.dark);
        j.set("attachment", slot.attachment);
        if (!slot.blend.empty()) j.set("blend", slot.blend);
        slot_array.push(std::move(j));
    }
    root.set("slots", std::move(slot_array));

    Json ik = Json::array();
    int order = 0;
    for (const char* side : {"back", "front"}) {
        std::string prefix = side;
        Json j = Json::object();
        j.set("name", prefix + "-leg-ik").set("order", order++);
        Json chain = Json::array();
        chain.push(prefix + "-thigh").push(prefix + "-shin");
        j.set("bones", std::move(chain)).set("target", prefix + "-foot-ik").set("bendPositive", false);
        ik.push(std::move(j));
    }
    root.set("ik", std::move(ik));

    Json skin = Json::object();
    skin.set("name", "default").set("attachments", std::move(skin_attachments));
    Json skins = Json::array();
    skins.push(std::move(skin));
    root.set("skins", std::move(skins));

    Json events = Json::object();
    {
        Json footstep = Json::object();
        footstep.set("string", "stone").set("audio", "footstep.ogg").set("volume", 0.8);
        Json swing = Json::object();
        swing.set("float", 1).set("string", "whoosh");
        Json hit = Json::object();
        hit.set("int", 10).set("float", 0.5).set("string", "slash");
        events.set("footstep", std::move(footstep)).set("swing", std::move(swing)).set("hit", std::move(hit));
    }
    root.set("events", std::move(events));
    return root;
}

void set_hash(Json& root) {
    root.at("skeleton").set("hash", "");
    std::string text = root.dump();
    root.at("skeleton").set("hash", hash_text(text));
}

}  // namespace spinegpu::rig
