#include <cstdio>
#include <optional>

#include "cli_args.hpp"
#include "commands.hpp"
#include "usage.hpp"
#include "skeleton_report.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu::tools {

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
