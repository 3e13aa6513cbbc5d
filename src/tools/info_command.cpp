#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "commands.hpp"
#include "usage.hpp"
#include "skeleton_report.hpp"
#include "spinegpu/core/file.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu::tools {
namespace {

// Reads each page image's size from its PNG header (no pixels are decoded): a page the atlas leaves unsized takes it;
// a page whose image is missing, unreadable or of another size than the atlas says is named in a warning, for render,
// bench and view would refuse it.
std::vector<std::string> check_page_images(Atlas& atlas, const std::string& atlas_path) {
    std::vector<std::string> warnings;
    for (std::size_t i = 0; i < atlas.pages.size(); ++i) {
        const auto page = static_cast<Index>(i);
        const std::string where = atlas_path + ": page \"" + atlas.pages[i].name + "\": ";
        const std::string path = atlas_page_path(atlas, page);
        Result<std::vector<std::uint8_t>> bytes = read_file_bytes(path);
        if (!bytes) {
            warnings.push_back(where + bytes.error().message());
            continue;
        }
        Result<ImageSize> size = image_size(*bytes, path);
        if (!size) {
            warnings.push_back(where + size.error().message());
            continue;
        }
        const AtlasPage& p = atlas.pages[i];
        if (p.width == 0 || p.height == 0) {
            if (Result<void> sized = set_atlas_page_size(atlas, page, size->width, size->height); !sized)
                warnings.push_back(where + sized.error().message());
        } else if (p.width != size->width || p.height != size->height) {
            warnings.push_back(where + path + " is " + std::to_string(size->width) + "x" +
                               std::to_string(size->height) + " but the atlas says " + std::to_string(p.width) + "x" +
                               std::to_string(p.height));
        }
    }
    return warnings;
}

}  // namespace

int run_info(int argc, char** argv) {
    std::string error;
    std::optional<CliArgs> args = CliArgs::parse(argc, argv, 2, *command_options("info"), error);
    if (args && args->positional().size() > 1) error = "unexpected argument \"" + args->positional()[1] + "\"";
    if (args && args->positional().empty()) error = "expected one skeleton file";
    if (!args || args->positional().size() != 1) {
        std::fprintf(stderr, "spinegpu info: %s\n%s", error.c_str(), command_usage("info"));
        return 2;
    }
    const std::string& path = args->positional()[0];
    Result<SkeletonData> skeleton = load_skeleton_file(path);
    if (!skeleton) {
        std::fprintf(stderr, "spinegpu info: %s\n", skeleton.error().message().c_str());
        return 1;
    }
    std::optional<Atlas> atlas;
    if (std::optional<std::string> atlas_path = args->get("--atlas")) {
        Result<Atlas> loaded = load_atlas_file(*atlas_path);
        if (!loaded) {
            std::fprintf(stderr, "spinegpu info: %s\n", loaded.error().message().c_str());
            return 1;
        }
        // (Before binding, which needs every page's size.)
        for (const std::string& warning : check_page_images(*loaded, *atlas_path))
            std::fprintf(stderr, "spinegpu info: warning: %s; render, bench and view refuse this atlas\n",
                         warning.c_str());
        Result<AtlasBinding> binding = bind_atlas(*skeleton, *loaded);
        if (!binding) {
            std::fprintf(stderr, "spinegpu info: %s\n", binding.error().message().c_str());
            return 1;
        }
        atlas = std::move(*loaded);
    }
    const Atlas* atlas_ptr = atlas ? &*atlas : nullptr;
    std::string report = args->has("--json") ? describe_json(path, *skeleton, atlas_ptr) + "\n"
                                             : describe_text(path, *skeleton, atlas_ptr);
    std::fputs(report.c_str(), stdout);
    return 0;
}

}  // namespace spinegpu::tools
