// The embedded demo rig's crowd: see demo_crowd.hpp.
#include "demo_crowd.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

namespace spinegpu::tools {

const EmbeddedFile* find_demo_rig_file(std::string_view suffix) {
    for (const EmbeddedFile& f : demo_rig_files())
        if (f.name.size() >= suffix.size() && f.name.substr(f.name.size() - suffix.size()) == suffix) return &f;
    return nullptr;
}

Result<void> write_demo_rig(const std::string& dir, bool quiet) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return make_error(dir, "", "cannot make the folder: " + ec.message());
    for (const EmbeddedFile& f : demo_rig_files()) {
        std::string path = (std::filesystem::path(dir) / std::string(f.name)).string();
        std::FILE* out = std::fopen(path.c_str(), "wb");
        if (out == nullptr) return make_error(path, "", std::string("cannot write: ") + std::strerror(errno));
        const bool written = std::fwrite(f.bytes.data(), 1, f.bytes.size(), out) == f.bytes.size();
        const int write_errno = errno;
        if (std::fclose(out) != 0 || !written)
            return make_error(path, "", std::string("cannot write: ") + std::strerror(written ? errno : write_errno));
        if (!quiet) std::printf("wrote %s (%zu bytes)\n", path.c_str(), f.bytes.size());
    }
    return {};
}

SceneFile demo_scene(const std::string& rig_dir, std::uint32_t count, std::uint32_t width, std::uint32_t height) {
    SceneFile scene;
    scene.file = rig_dir + "/demo-scene";
    scene.width = width;
    scene.height = height;
    scene.background = Color{0.13f, 0.15f, 0.19f, 1};
    scene.camera_scale = 1;
    scene.camera_x = 0;
    scene.camera_y = static_cast<float>(height);
    scene.types.push_back({"knight", rig_dir + "/spinegpu-demo.json", rig_dir + "/spinegpu-demo.atlas"});
    const char* const animations[] = {"idle", "walk", "run", "attack"};
    const Color tints[] = {{1, 1, 1, 1}, {1, 0.85f, 0.8f, 1}, {0.8f, 0.9f, 1, 1}, {0.9f, 1, 0.85f, 1}};
    std::mt19937 random(20261130);
    for (std::uint32_t i = 0; i < count; ++i) {
        SceneCharacter c;
        c.where = "characters[" + std::to_string(i) + "]";
        c.x = static_cast<float>(random() % (width - 60) + 30);
        c.y = static_cast<float>(random() % (height - 130) + 10);
        c.scale = 0.2f + 0.1f * static_cast<float>(random() % 100) / 100.0f;
        c.flip_x = random() % 2 == 1;
        c.tint = tints[random() % 4];
        c.animation = animations[random() % 4];
        c.start = static_cast<double>(random() % 1000) / 1000.0;
        scene.characters.push_back(std::move(c));
    }
    return scene;
}

}  // namespace spinegpu::tools
