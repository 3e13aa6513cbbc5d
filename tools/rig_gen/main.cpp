// spinegpu_rig_gen OUTDIR: draws, rigs and animates the project's demo character and writes it as a Spine 4.2
// export (spinegpu-demo.json, .atlas, .png) plus demo_rig_embedded.cpp, which embeds those three files. The
// output is deterministic: the same sources always give the same bytes.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "embed.hpp"
#include "rig_atlas.hpp"
#include "rig_skeleton.hpp"
#include "spinegpu/data/image.hpp"

namespace {

using namespace spinegpu;

std::vector<std::uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

// Writes `bytes` to `path` unless the file already holds exactly them (so that an unchanged rig does not make
// the embedding library rebuild).
void write_if_changed(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    {
        std::ifstream in(path, std::ios::binary);
        if (in) {
            std::vector<std::uint8_t> old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            if (old == bytes) return;
        }
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: spinegpu_rig_gen OUTDIR\n");
        return 2;
    }
    try {
        namespace fs = std::filesystem;
        const fs::path out_dir = argv[1];
        fs::create_directories(out_dir);
        const std::string name = "spinegpu-demo";

        std::vector<rig::ArtRegion> art = rig::draw_art();
        rig::PackedPage page = rig::pack_atlas(art, name + ".png");
        rig::Skeleton skeleton = rig::build_bones();
        rig::Json root = rig::skeleton_json(skeleton, art);
        root.set("animations", rig::animations_json(skeleton));
        rig::set_hash(root);

        const std::vector<std::uint8_t> json = bytes_of(root.dump());
        const std::vector<std::uint8_t> atlas = bytes_of(rig::atlas_text(page));

        // The PNG goes through a temporary file: write_png_file is the project's one PNG encoder.
        const fs::path png_path = out_dir / (name + ".png");
        const fs::path png_temp = out_dir / (name + ".png.tmp");
        Image image;
        image.width = static_cast<std::uint32_t>(page.width);
        image.height = static_cast<std::uint32_t>(page.height);
        image.rgba = std::move(page.rgba);
        if (Result<void> written = write_png_file(png_temp.string(), image); !written) {
            std::fprintf(stderr, "spinegpu_rig_gen: %s\n", written.error().message().c_str());
            return 1;
        }
        const std::vector<std::uint8_t> png = read_file(png_temp);
        fs::remove(png_temp);

        write_if_changed(out_dir / (name + ".json"), json);
        write_if_changed(out_dir / (name + ".atlas"), atlas);
        write_if_changed(png_path, png);
        const std::string source = rig::embedded_source(
            {{name + ".json", json}, {name + ".atlas", atlas}, {name + ".png", png}});
        write_if_changed(out_dir / "demo_rig_embedded.cpp", bytes_of(source));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spinegpu_rig_gen: %s\n", e.what());
        return 1;
    }
    return 0;
}
