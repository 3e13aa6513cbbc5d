// spinegpu: inspect, pose, render and benchmark Spine 4.2 skeletons (see README.md and DESIGN.md).
#include <cstdio>
#include <cstring>
#include <new>
#include <string_view>

#include "commands.hpp"

namespace {

const char* const k_usage =
    "usage: spinegpu COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  info SKELETON [--atlas ATLAS] [--json]   describe a skeleton export (.json or .skel) and its atlas\n"
    "  pose --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME] [--steps N] [--dt D]\n"
    "       [--every K]                         print world transforms, slots and events per step (JSON lines)\n"
    "  bench --skeleton S --atlas A --characters N[,N...] [--frames F] [--threads T]\n"
    "        [--paths update,gpu,cpu,gpu-vertex,gpu-tiles] [--backend pool|tbb] [--json]\n"
    "                                           time the runtime update and the renderer's paths (see README)\n"
    "  render --skeleton S --atlas A (--animation NAME | --schedule FILE) --width W --height H\n"
    "         (--camera SCALE,OX,OY | --fit) [--path gpu|cpu|gpu-vertex|gpu-tiles] --out FILE.png\n"
    "                                           draw a pose (see README); render --scene draws a crowd\n"
    "  demo [--out DIR] [--characters N] [--frames F] [--device NAME] [--validation]\n"
    "                                           draw a crowd of the embedded demo rig, with timings\n"
    "  demo --export DIR                        write the embedded demo rig's files\n"
    "  help                                     this text (also COMMAND --help)\n"
    "  version                                  the version of spinegpu (also --version)\n";

// Runs one command.
int run(int argc, char** argv) {
    std::string_view command = argv[1];
    // Help wherever it is asked for: every command's options are in the one usage text.
    bool help = command == "help";
    for (int i = 1; i < argc; ++i)
        help = help || std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0;
    if (help) {
        std::fputs(k_usage, stdout);
        return 0;
    }
    if (command == "version" || command == "--version") {
        std::printf("spinegpu %s\n", SPINEGPU_VERSION);
        return 0;
    }
    if (command == "info") return spinegpu::tools::run_info(argc, argv);
    if (command == "pose") return spinegpu::tools::run_pose(argc, argv);
    if (command == "render") return spinegpu::tools::run_render(argc, argv);
    if (command == "demo") return spinegpu::tools::run_demo(argc, argv);
    if (command == "bench") return spinegpu::tools::run_bench(argc, argv);
    if (command == "view") {
        std::fputs("spinegpu view: not built yet (the window is the next step; render draws headless)\n", stderr);
        return 2;
    }
    std::fprintf(stderr, "spinegpu: unknown command \"%s\"\n\n%s", argv[1], k_usage);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fputs(k_usage, stderr);
        return 2;
    }
    try {
        return run(argc, argv);
    } catch (const std::bad_alloc&) {
        // (Sizes that users give, such as a crowd's, are bounded, but not by this machine's memory.)
        std::fprintf(stderr, "spinegpu %s: out of memory\n", argv[1]);
        return 1;
    }
}
