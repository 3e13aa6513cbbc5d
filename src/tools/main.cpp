// spinegpu: inspect, pose, render and benchmark Spine 4.2 skeletons (see README.md and DESIGN.md).
#include <cstdio>
#include <cstring>
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
    "  help                                     this text\n";

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fputs(k_usage, stderr);
        return 2;
    }
    std::string_view command = argv[1];
    if (command == "info") return spinegpu::tools::run_info(argc, argv);
    if (command == "pose") return spinegpu::tools::run_pose(argc, argv);
    if (command == "render") return spinegpu::tools::run_render(argc, argv);
    if (command == "demo") return spinegpu::tools::run_demo(argc, argv);
    if (command == "bench") return spinegpu::tools::run_bench(argc, argv);
    if (command == "help" || command == "--help" || command == "-h") {
        std::fputs(k_usage, stdout);
        return 0;
    }
    std::fprintf(stderr, "spinegpu: unknown command \"%s\"\n\n%s", argv[1], k_usage);
    return 2;
}
