#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string_view>

#include "cli_args.hpp"
#include "commands.hpp"
#include "skeleton_report.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/demo_rig.hpp"

namespace spinegpu::tools {
namespace {

const EmbeddedFile* find_file(std::string_view suffix) {
    for (const EmbeddedFile& f : demo_rig_files())
        if (f.name.size() >= suffix.size() && f.name.substr(f.name.size() - suffix.size()) == suffix) return &f;
    return nullptr;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Writes the embedded files into `dir`, so that the rig can be used with the other commands.
int export_rig(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    for (const EmbeddedFile& f : demo_rig_files()) {
        std::string path = (std::filesystem::path(dir) / std::string(f.name)).string();
        std::FILE* out = std::fopen(path.c_str(), "wb");
        if (!out || std::fwrite(f.bytes.data(), 1, f.bytes.size(), out) != f.bytes.size()) {
            std::fprintf(stderr, "spinegpu demo: %s: cannot write\n", path.c_str());
            if (out) std::fclose(out);
            return 1;
        }
        std::fclose(out);
        std::printf("wrote %s (%zu bytes)\n", path.c_str(), f.bytes.size());
    }
    return 0;
}

}  // namespace

int run_demo(int argc, char** argv) {
    std::string error;
    std::optional<CliArgs> args = CliArgs::parse(argc, argv, 2, {"--export"}, {}, error);
    if (!args || !args->positional().empty()) {
        std::fprintf(stderr, "spinegpu demo: %s\nusage: spinegpu demo [--export DIR]\n",
                     args ? "unexpected argument" : error.c_str());
        return 2;
    }
    if (std::optional<std::string> dir = args->get("--export")) return export_rig(*dir);

    const EmbeddedFile* json = find_file(".json");
    const EmbeddedFile* atlas_file = find_file(".atlas");
    const EmbeddedFile* page = find_file(".png");
    if (!json || !atlas_file || !page) {
        std::fprintf(stderr, "spinegpu demo: the embedded demo rig is incomplete\n");
        return 1;
    }

    auto start = std::chrono::steady_clock::now();
    std::string_view text(reinterpret_cast<const char*>(json->bytes.data()), json->bytes.size());
    Result<SkeletonData> skeleton = load_skeleton_json(text, std::string(json->name));
    double skeleton_ms = ms_since(start);
    if (!skeleton) {
        std::fprintf(stderr, "spinegpu demo: %s\n", skeleton.error().message().c_str());
        return 1;
    }
    start = std::chrono::steady_clock::now();
    std::string_view atlas_text(reinterpret_cast<const char*>(atlas_file->bytes.data()), atlas_file->bytes.size());
    Result<Atlas> atlas = parse_atlas(atlas_text, std::string(atlas_file->name));
    if (!atlas) {
        std::fprintf(stderr, "spinegpu demo: %s\n", atlas.error().message().c_str());
        return 1;
    }
    Result<AtlasBinding> binding = bind_atlas(*skeleton, *atlas);
    if (!binding) {
        std::fprintf(stderr, "spinegpu demo: %s\n", binding.error().message().c_str());
        return 1;
    }
    double atlas_ms = ms_since(start);
    start = std::chrono::steady_clock::now();
    Result<Image> image = decode_image(page->bytes, std::string(page->name));
    double image_ms = ms_since(start);
    if (!image) {
        std::fprintf(stderr, "spinegpu demo: %s\n", image.error().message().c_str());
        return 1;
    }

    std::fputs(describe_text(std::string(json->name) + " (embedded demo rig)", *skeleton, &*atlas).c_str(), stdout);
    std::printf("page image   %ux%u RGBA8 decoded\n", image->width, image->height);
    std::printf("\nload times   skeleton %.3f ms, atlas + binding %.3f ms, page decode %.3f ms\n", skeleton_ms,
                atlas_ms, image_ms);
    std::printf("\nThe renderer is not built yet: `spinegpu demo` will draw a crowd of this rig to out/demo.png.\n"
                "`spinegpu demo --export DIR` writes the rig's files for use with the other commands.\n");
    return 0;
}

}  // namespace spinegpu::tools
