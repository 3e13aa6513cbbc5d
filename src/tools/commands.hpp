// The spinegpu command's subcommands. Each returns the process exit code: 0 success, 1 a failed operation (bad
// input file, device error), 2 a usage error. Errors go to stderr and name the file and the place in it.
#pragma once

namespace spinegpu::tools {

// spinegpu info SKELETON [--atlas ATLAS] [--json]
int run_info(int argc, char** argv);

// spinegpu pose --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME] [--steps N] [--dt D]
//               [--every K]
int run_pose(int argc, char** argv);

// spinegpu render --skeleton S --atlas A (--animation NAME | --schedule FILE) [--skin NAME] [--steps N] [--dt D]
//                 --width W --height H (--camera SCALE,OX,OY | --fit) [--background RRGGBBAA] [--path gpu|cpu]
//                 [--device NAME] [--validation] --out FILE.png
int run_render(int argc, char** argv);

// spinegpu demo: the embedded demo rig.
int run_demo(int argc, char** argv);

// spinegpu view [--scene SCENE.json | --characters N] [--path P] [--width W --height H] [--frames N [--hold]]
//               [--no-vsync] [--device NAME] [--validation]: a crowd live in a window.
int run_view(int argc, char** argv);

// spinegpu bench --skeleton S --atlas A --characters N[,N...] [--frames F] [--threads T] [--paths update,gpu,cpu]
//                [--backend pool|tbb] [--width W --height H] [--json]
int run_bench(int argc, char** argv);

}  // namespace spinegpu::tools
