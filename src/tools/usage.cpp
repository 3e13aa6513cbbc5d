#include "usage.hpp"

namespace spinegpu::tools {
namespace {

const char* const k_info_usage =
    "usage: spinegpu info SKELETON [--atlas ATLAS] [--json]\n"
    "  Describes a skeleton export (.json or .skel): bones, slots, skins, constraints, animations and their\n"
    "  timelines, events, and the optional per-frame data it needs on the GPU.\n"
    "  --atlas ATLAS   also resolve every attachment against this atlas (a missing region is an error)\n"
    "  --json          one JSON object instead of the text report\n";

const char* const k_pose_usage =
    "usage: spinegpu pose --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME]\n"
    "                     [--steps N] [--dt SECONDS] [--every K]\n"
    "  Prints the pose per step as JSON lines: bones' world transforms, slots, events.\n"
    "  --animation NAME  loop one animation on track 0       --schedule FILE  a schedule of track calls (README)\n"
    "  --skin NAME       the skin (default: the default skin; overrides a schedule's \"skin\")\n"
    "  --steps N         steps after the setup pose (60)      --dt SECONDS     seconds per step (1/60)\n"
    "  --every K         print every K-th step (1)\n";

const char* const k_render_usage =
    "usage: spinegpu render --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME] [--steps N]\n"
    "                       [--dt D] --width W --height H (--camera SCALE,OX,OY | --fit)\n"
    "                       [--background RRGGBBAA] [--path gpu|cpu|gpu-vertex|gpu-tiles] [--device NAME]\n"
    "                       [--validation] --out FILE.png\n"
    "       spinegpu render --scene SCENE.json [--frames N] [--path gpu|cpu|gpu-vertex|gpu-tiles] [--device NAME]\n"
    "                       [--validation] --out DIR\n"
    "  Draws one skeleton's pose after the steps (as pose steps it) into a straight-alpha PNG, or a scene file's\n"
    "  crowd (format in the README) into DIR/frame-0001.png and on, one per frame.\n"
    "  --skin, --steps (60), --dt (1/60)  as for pose            --width, --height  the image, 1 to 16384 pixels\n"
    "  --camera SCALE,OX,OY  world (x, y) to pixels: px = OX + SCALE*x, py = OY - SCALE*y (SCALE up to 1e7,\n"
    "                        OX and OY within 1e9)\n"
    "  --fit                 frame the bounds over all the steps, 5% margin (prints the --camera it chose)\n"
    "  --background RRGGBBAA straight alpha (00000000)          --frames N  the scene's frames (1)\n"
    "  --path                gpu (default), cpu (the reference), gpu-vertex, gpu-tiles\n"
    "  --device NAME         the Vulkan device whose name contains NAME (or SPINEGPU_DEVICE; a GPU is preferred)\n"
    "  --validation          Vulkan validation layers on; any message fails the command\n";

const char* const k_bench_usage =
    "usage: spinegpu bench --skeleton S --atlas A --characters N[,N...] [--frames F] [--threads T]\n"
    "                      [--paths update,gpu,cpu,gpu-vertex,gpu-tiles] [--backend pool|tbb]\n"
    "                      [--width W --height H] [--device NAME] [--character-pixels P] [--skin NAME]\n"
    "                      [--update-in-pack] [--offscreen M] [--skip-offscreen] [--walk P] [--onto unorm|srgb]\n"
    "                      [--json]\n"
    "  Times crowds of N characters on random looping animations: the runtime update alone (path update) and\n"
    "  whole frames through the renderer (the other paths), medians over F frames (README, \"Benchmarks\").\n"
    "  --frames F (120)   --threads T (all cores)   --paths (update)   --backend (pool)   --skin (default skin)\n"
    "  --width W --height H  the view, together (1920x1080)   --character-pixels P  character height (64)\n"
    "  --device NAME     as for render                        --update-in-pack  update inside the packing pass\n"
    "  --offscreen M     M more characters outside the view (0)  --skip-offscreen  do not pose those outside it\n"
    "  --walk P          characters walk the way they face, P pixels a second (0: they stand)\n"
    "  --onto unorm|srgb draw onto an RGBA8 image of that form on a device the bench makes as an application would\n"
    "                    (sRGB: in linear light) instead of into the renderer's own target\n"
    "  --json            one JSON object per row instead of the tables\n";

const char* const k_demo_usage =
    "usage: spinegpu demo [--out DIR] [--characters N] [--frames F] [--device NAME] [--validation]\n"
    "       spinegpu demo --export DIR\n"
    "  Draws a crowd of the embedded demo rig with a table of timings, into DIR/demo.png and DIR/demo-frames/ (out),\n"
    "  and writes the rig to DIR/demo-rig/. --characters 1 to 100000 (400); --frames 1 to 10000 (30);\n"
    "  --device, --validation as for render.\n"
    "  --export DIR      only write the rig's files (skeleton, atlas, page) to DIR\n";

const char* const k_view_usage =
    "usage: spinegpu view [--scene SCENE.json | --characters N] [--path gpu|cpu|gpu-vertex|gpu-tiles]\n"
    "                     [--width W --height H] [--frames N [--hold]] [--no-vsync] [--device NAME] [--validation]\n"
    "  Plays a scene file's crowd (format in the README), or the demo crowd of N knights (400), live in a window:\n"
    "  each frame is stepped as render --scene steps it, drawn at the window's size and shown. Needs a display and\n"
    "  GLFW (libglfw3). Esc or Q closes, Space pauses, the wheel zooms about the cursor, a left-button drag pans,\n"
    "  R restores the scene's camera. On closing, prints the median frame, update, pack and GPU times.\n"
    "  --width W --height H  the window (the scene's canvas, shrunk to fit 90% of the screen; the canvas is scaled\n"
    "                        to fit the window)\n"
    "  --frames N        close after N frames; with --hold, keep showing frame N until the window is closed\n"
    "  --no-vsync        show frames as fast as they come instead of at the display's rate\n"
    "  --path, --device, --validation  as for render\n";

}  // namespace

const char* const k_general_usage =
    "usage: spinegpu COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  info SKELETON [--atlas ATLAS] [--json]   describe a skeleton export (.json or .skel) and its atlas\n"
    "  pose --skeleton S --atlas A (--animation NAME | --schedule FILE) ...\n"
    "                                           print world transforms, slots and events per step (JSON lines)\n"
    "  render --skeleton S --atlas A (--animation NAME | --schedule FILE) --width W --height H\n"
    "         (--camera SCALE,OX,OY | --fit) ... --out FILE.png\n"
    "                                           draw a pose into a PNG\n"
    "  render --scene SCENE.json [--frames N] ... --out DIR\n"
    "                                           draw a crowd of several skeletons, one PNG per frame\n"
    "  bench --skeleton S --atlas A --characters N[,N...] ...\n"
    "                                           time the runtime update and the renderer's paths\n"
    "  demo [--out DIR] [--characters N] [--frames F] ...\n"
    "                                           draw a crowd of the embedded demo rig, with timings\n"
    "  view [--scene SCENE.json | --characters N] ...\n"
    "                                           play a crowd live in a window\n"
    "  help [COMMAND]                           this text, or every option of COMMAND (also COMMAND --help)\n"
    "  version                                  the version of spinegpu (also --version)\n";

const OptionNames* command_options(std::string_view command) {
    static const OptionNames info{{"--atlas"}, {"--json"}};
    static const OptionNames pose{
        {"--skeleton", "--atlas", "--animation", "--schedule", "--skin", "--steps", "--dt", "--every"}, {}};
    static const OptionNames render{{"--skeleton", "--atlas", "--animation", "--schedule", "--skin", "--steps", "--dt",
                                     "--width", "--height", "--camera", "--background", "--path", "--out", "--device",
                                     "--scene", "--frames"},
                                    {"--fit", "--validation"}};
    static const OptionNames bench{{"--skeleton", "--atlas", "--characters", "--frames", "--threads", "--paths",
                                    "--backend", "--width", "--height", "--device", "--character-pixels", "--skin",
                                    "--offscreen", "--walk", "--onto"},
                                   {"--json", "--update-in-pack", "--skip-offscreen"}};
    static const OptionNames demo{{"--export", "--out", "--characters", "--frames", "--device"}, {"--validation"}};
    static const OptionNames view{{"--scene", "--characters", "--path", "--width", "--height", "--frames", "--device"},
                                  {"--hold", "--no-vsync", "--validation"}};
    if (command == "info") return &info;
    if (command == "pose") return &pose;
    if (command == "render") return &render;
    if (command == "bench") return &bench;
    if (command == "demo") return &demo;
    if (command == "view") return &view;
    return nullptr;
}

const char* command_usage(std::string_view command) {
    if (command == "info") return k_info_usage;
    if (command == "pose") return k_pose_usage;
    if (command == "render") return k_render_usage;
    if (command == "bench") return k_bench_usage;
    if (command == "demo") return k_demo_usage;
    if (command == "view") return k_view_usage;
    return nullptr;
}

}  // namespace spinegpu::tools
