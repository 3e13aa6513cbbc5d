// Path constraints against the official runtime: the world transforms of path-constrained bones in a small rig
// that covers every position, spacing and rotate mode (open and closed paths, constant speed on and off, positions
// before and after an open path, zero spacing, offset rotation on a mirrored target, partial mixes, path timelines,
// deform) and in the example skeletons that use path constraints (weighted paths, chain scale, closed treads).
//
// Expected numbers come from the official runtime (spine-core 4.2.119), printed by
//   node tests/runtime/path_constraint_expected.mjs /tmp/ref/node_modules/@esotericsoftware/spine-core/dist/index.js
// which reads the rig below from this file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "pose_test_support.hpp"
#include "../../src/runtime/constraints.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu {
namespace {

// Ten times tighter than DESIGN.md's pose tolerances (a b c d within 1e-3, positions within 0.05), so that a drift
// shows before it matters; the official runtime computes in doubles, we store floats.
constexpr double k_matrix_tolerance = 1e-4, k_position_tolerance = 5e-3;

// Seven path constraints, each on its own bone chain.
constexpr const char* k_rig = R"json(
{
"skeleton": {"spine": "4.2.43"},
"bones": [
  {"name": "root"},
  {"name": "holder", "parent": "root", "x": 20, "y": -10, "rotation": 12, "scaleX": 1.2, "scaleY": 0.9},
  {"name": "mirror", "parent": "root", "x": -150, "y": 40, "rotation": -20, "scaleX": -1},
  {"name": "a1", "parent": "root", "length": 30, "x": 5, "y": 5},
  {"name": "a2", "parent": "a1", "x": 30},
  {"name": "a3", "parent": "a2", "length": 40, "rotation": 15},
  {"name": "b1", "parent": "root", "length": 20, "rotation": 40},
  {"name": "b2", "parent": "b1", "length": 40, "x": 20, "scaleX": 1.5},
  {"name": "b3", "parent": "b2", "x": 40},
  {"name": "b4", "parent": "b3", "length": 30, "rotation": -30},
  {"name": "c1", "parent": "root", "length": 50, "y": -30},
  {"name": "c2", "parent": "c1", "length": 50, "x": 50},
  {"name": "c3", "parent": "c2", "length": 50, "x": 50, "shearY": 10},
  {"name": "d1", "parent": "root", "length": 25},
  {"name": "d2", "parent": "d1", "length": 25, "x": 25},
  {"name": "d3", "parent": "d2", "length": 25, "x": 25},
  {"name": "e1", "parent": "root", "length": 10},
  {"name": "e2", "parent": "e1", "length": 10, "x": 10},
  {"name": "e3", "parent": "e2", "length": 10, "x": 10},
  {"name": "e4", "parent": "e3", "length": 10, "x": 10},
  {"name": "f1", "parent": "root", "length": 15, "rotation": 90},
  {"name": "f2", "parent": "f1", "length": 15, "x": 15},
  {"name": "f3", "parent": "f2", "length": 15, "x": 15},
  {"name": "g1", "parent": "root", "length": 60},
  {"name": "g2", "parent": "g1", "length": 60, "x": 60},
  {"name": "g3", "parent": "g2", "length": 60, "x": 60}
],
"slots": [
  {"name": "open-uniform", "bone": "holder", "attachment": "open-uniform"},
  {"name": "closed-even", "bone": "root", "attachment": "closed-even"},
  {"name": "open-even", "bone": "root", "attachment": "open-even"},
  {"name": "closed-uniform", "bone": "mirror", "attachment": "closed-uniform"},
  {"name": "line", "bone": "root", "attachment": "line"}
],
"path": [
  {"name": "tangent-fixed", "bones": ["a1", "a2", "a3"], "target": "open-uniform", "positionMode": "fixed",
   "spacingMode": "fixed", "rotateMode": "tangent", "rotation": 30, "position": 15, "spacing": 30,
   "mixRotate": 0.7, "mixX": 0.5, "mixY": 0.8},
  {"order": 1, "name": "chain-proportional", "bones": ["b1", "b2", "b3", "b4"], "target": "closed-even",
   "spacingMode": "proportional", "rotateMode": "chain", "position": 0.3, "spacing": 0.2},
  {"order": 2, "name": "scale-beyond-ends", "bones": ["c1", "c2", "c3"], "target": "open-even",
   "positionMode": "fixed", "rotateMode": "chainScale", "rotation": -45, "position": -40, "spacing": 200,
   "mixRotate": 0.6},
  {"order": 3, "name": "chain-percent-wrap", "bones": ["d1", "d2", "d3"], "target": "closed-uniform",
   "spacingMode": "percent", "rotateMode": "chain", "position": 0.9, "spacing": 0.25},
  {"order": 4, "name": "tangent-percent", "bones": ["e1", "e2", "e3", "e4"], "target": "open-even",
   "spacingMode": "percent", "position": 0.1, "spacing": 0.2, "mixX": 0.3},
  {"order": 5, "name": "chain-zero-spacing", "bones": ["f1", "f2", "f3"], "target": "closed-even",
   "positionMode": "fixed", "spacingMode": "fixed", "rotateMode": "chain", "rotation": 10, "position": 50},
  {"order": 6, "name": "straight-line", "bones": ["g1", "g2", "g3"], "target": "line",
   "spacingMode": "percent", "position": 0, "spacing": 0.5}
],
"skins": [
  {"name": "default", "attachments": {
    "open-uniform": {"open-uniform": {"type": "path", "constantSpeed": false, "lengths": [160, 420, 420], "vertexCount": 9,
      "vertices": [-40, -30, 0, 0, 40, 30, 80, 100, 140, 60, 180, 20, 200, -40, 260, -20, 300, 0]}},
    "closed-even": {"closed-even": {"type": "path", "closed": true, "lengths": [200, 380, 600], "vertexCount": 9,
      "vertices": [-60, 40, -20, 120, 20, 180, 100, 200, 160, 140, 190, 60, 140, -40, 60, -60, -10, -30]}},
    "open-even": {"open-even": {"type": "path", "lengths": [150, 330, 500, 500], "vertexCount": 12,
      "vertices": [-20, -60, 0, -50, 20, -40, 60, -60, 100, -20, 140, 20, 170, 40, 200, 80, 230, 120, 280, 140,
                   330, 130, 380, 120]}},
    "closed-uniform": {"closed-uniform": {"type": "path", "closed": true, "constantSpeed": false,
      "lengths": [120, 260, 350, 470], "vertexCount": 12,
      "vertices": [-30, 10, 0, 0, 30, -10, 60, 20, 80, 50, 90, 90, 70, 110, 40, 120, 10, 120, -20, 90, -30, 60,
                   -30, 30]}},
    "line": {"line": {"type": "path", "lengths": [120, 240, 240], "vertexCount": 9,
      "vertices": [-40, 0, 0, 0, 40, 0, 80, 0, 120, 0, 160, 0, 200, 0, 240, 0, 280, 0]}}
  }}
],
"animations": {
  "move": {
    "bones": {"holder": {"rotate": [{"value": 0, "curve": [0.2, 10, 0.4, 25]}, {"time": 0.5, "value": 30}]},
              "mirror": {"translate": [{"x": 0}, {"time": 1, "x": 30, "y": -20}]}},
    "path": {
      "tangent-fixed": {"position": [{"value": 15}, {"time": 1, "value": 120}],
                        "spacing": [{"value": 30}, {"time": 1, "value": 10}],
                        "mix": [{"mixRotate": 0.7, "mixX": 0.5, "mixY": 0.8}, {"time": 1, "mixRotate": 1, "mixX": 1, "mixY": 0.2}]},
      "chain-proportional": {"position": [{"value": 0.3}, {"time": 1, "value": 1.1}]}
    },
    "attachments": {"default": {"open-uniform": {"open-uniform": {"deform": [{"vertices": [0, 0, 0, 0, 10, -20, 30, 40]},
      {"time": 1, "offset": 4, "vertices": [-15, 25, 0, 10]}]}}}}
  }
}
}
)json";

struct ExpectedBone {
    const char* name;
    double a, b, c, d, x, y;
};

// skin -, animation - at 0: name, a, b, c, d, x, y.
constexpr ExpectedBone k_rig_setup[] = {
    {"a1", 0.598665781, -0.800998956, 0.800998928, 0.598665744, 18.2356399, 1.84671836},
    {"a2", 0.576906252, -0.816810408, 0.816810367, 0.576906195, 44.6245061, 21.9867105},
    {"a3", 0.57235282, -0.820007524, 0.820007448, 0.572352771, 56.7529005, 42.0385604},
    {"b1", 0.390386905, 0.92065089, -0.920650879, 0.390386939, 156.476887, 143.410364},
    {"b2", 0.0162978543, 0.999940982, -1.49991144, 0.0108652869, 164.284625, 124.997346},
    {"b3", 0.00771307525, 0.999986791, -1.49998015, 0.00514213553, 164.93654, 65.0008886},
    {"b4", -0.413064709, 0.913693622, -1.32923949, -0.69113229, 164.93654, 65.0008886},
    {"c1", 3.25514881, 0.163254428, -0.53864406, 0.986584001, -35.7770864, -67.888544},
    {"c2", 3.00942668, 0.289179335, -0.909105823, 0.957274941, 174.84726, 50.5029788},
    {"c3", 2.82581059, 0.403320996, -1.89071269, 0.915058576, 393.519, 117.296199},
    {"d1", -0.942744614, -0.333515464, 0.333515507, -0.942744629, -122.562946, 47.4152522},
    {"d2", -0.391159838, -0.920322732, 0.920322759, -0.391159902, -146.131562, 55.7531399},
    {"d3", 0.617043485, -0.786929112, 0.786929055, 0.617043412, -155.910558, 78.7612089},
    {"e1", 0.99886554, -0.0476197257, 0.0476196794, 0.998865537, 11.7579737, -13.9337484},
    {"e2", 0.718622558, -0.69540038, 0.69540033, 0.71862251, 39.468322, -3.57241248},
    {"e3", 0.71509813, -0.699024146, 0.69902408, 0.715098065, 63.8386175, 12.5173737},
    {"e4", 0.754218269, -0.656623879, 0.656623791, 0.754218192, 86.7077544, 30.1427574},
    {"f1", 0.71288727, -0.701278647, 0.701278647, 0.71288727, 15.0588968, 155.856594},
    {"f2", 0.71288727, -0.701278664, 0.701278647, 0.712887253, 15.0588968, 155.856594},
    {"f3", 0.71288727, -0.70127868, 0.701278647, 0.712887237, 15.0588968, 155.856594},
    {"g1", 1, -4.64102067e-8, 0, 1, 0, 0},
    {"g2", 1, -6.961531e-8, 0, 1, 120, 0},
    {"g3", 1, -9.28204133e-8, 0, 1, 240, 0},
};
// skin -, animation move at 0.6: name, a, b, c, d, x, y.
constexpr ExpectedBone k_rig_move[] = {
    {"a1", 0.00749175603, -0.999971937, 0.999971936, 0.00749170962, 30.4728569, 40.1044641},
    {"a2", 0.156908036, -0.987613229, 0.987613218, 0.156907967, 43.350183, 49.1465464},
    {"a3", 0.343123594, -0.939290306, 0.939290245, 0.343123528, 52.9360505, 56.7378832},
    {"b1", -0.623884093, -0.78151687, 0.781516869, -0.623884128, 0.171897077, -18.7645146},
    {"b2", -0.480282264, -0.947353957, 1.42103093, -0.320188231, -12.3057848, -3.13417719},
    {"b3", -0.468939358, -0.949876204, 1.42481431, -0.312626326, -31.5170753, 53.7070599},
    {"b4", 0.152792728, -1.02843511, 1.38352971, 0.504798085, -31.5170753, 53.7070599},
    {"c1", 3.25514881, 0.163254428, -0.53864406, 0.986584001, -35.7770864, -67.888544},
    {"c2", 3.00942668, 0.289179335, -0.909105823, 0.957274941, 174.84726, 50.5029788},
    {"c3", 2.82581059, 0.403320996, -1.89071269, 0.915058576, 393.519, 117.296199},
    {"d1", -0.942744614, -0.333515464, 0.333515507, -0.942744629, -104.562946, 35.4152522},
    {"d2", -0.391159838, -0.920322732, 0.920322759, -0.391159902, -128.131561, 43.7531399},
    {"d3", 0.617043485, -0.786929112, 0.786929055, 0.617043412, -137.910557, 66.7612089},
    {"e1", 0.99886554, -0.0476197257, 0.0476196794, 0.998865537, 11.7579737, -13.9337484},
    {"e2", 0.718622558, -0.69540038, 0.69540033, 0.71862251, 39.468322, -3.57241248},
    {"e3", 0.71509813, -0.699024146, 0.69902408, 0.715098065, 63.8386175, 12.5173737},
    {"e4", 0.754218269, -0.656623879, 0.656623791, 0.754218192, 86.7077544, 30.1427574},
    {"f1", 0.71288727, -0.701278647, 0.701278647, 0.71288727, 15.0588968, 155.856594},
    {"f2", 0.71288727, -0.701278664, 0.701278647, 0.712887253, 15.0588968, 155.856594},
    {"f3", 0.71288727, -0.70127868, 0.701278647, 0.712887237, 15.0588968, 155.856594},
    {"g1", 1, -4.64102067e-8, 0, 1, 0, 0},
    {"g2", 1, -6.961531e-8, 0, 1, 120, 0},
    {"g3", 1, -9.28204133e-8, 0, 1, 240, 0},
};
// vine-pro.json
// skin -, animation grow at 3.1: name, a, b, c, d, x, y.
constexpr ExpectedBone k_vine[] = {
    {"vine1", -0.164156707, -1.07240859, 1.1014691, -0.159825695, 3.17916424, 0.228671313},
    {"vine10", 0.552943509, -1.05213149, 0.989009215, 0.459138954, -11.4646878, 714.281478},
    {"vine11", 0.119728312, -1.13164629, 1.13820001, 0.00862463789, 29.4531319, 787.46816},
    {"vine12", -0.0651241494, -1.08386709, 1.19084013, -0.0987974219, 38.3130269, 871.69496},
    {"vine13", 0.257430421, -1.05354776, 1.15119592, 0.302325933, 33.4938399, 959.81713},
    {"vine2", -0.657994354, -0.910245976, 1.01667172, -0.589115186, -8.96843209, 81.7373844},
    {"vine3", 0.0788984767, -1.12974422, 1.15326004, -0.032053609, -57.6600143, 156.971091},
    {"vine4", 0.724942454, -0.890135485, 0.905955998, 0.635982452, -51.821527, 242.312334},
    {"vine5", 0.578560919, -0.912276835, 0.99818278, 0.615367176, 1.8242146, 309.353078},
    {"vine6", -0.0520252805, -1.15036145, 1.13717136, 0.0594346439, 44.6377226, 383.218604},
    {"vine7", -0.491601458, -1.064683, 1.04275148, -0.381002787, 40.7878518, 467.369285},
    {"vine8", -0.379300067, -1.03628586, 1.12988518, -0.323573409, 4.40934392, 544.532894},
    {"vine9", 0.164786124, -1.10661578, 1.1640146, 0.0668609651, -23.658861, 628.144398},
};
// stretchyman-pro.json
// skin -, animation sneak at 0.7: name, a, b, c, d, x, y.
constexpr ExpectedBone k_stretchyman[] = {
    {"back-arm1", 0.53989741, 0.853422632, -0.884005023, 0.521219542, 662.213179, 306.479236},
    {"back-arm2", 0.70461319, 0.688497623, -0.668917171, 0.725238599, 679.722052, 277.810953},
    {"back-arm3", 1.06096253, -0.0199648595, 0.0211861204, 0.999800691, 703.791638, 254.960742},
    {"back-arm4", 0.972628903, -0.268848687, 0.271485357, 0.963182449, 736.967937, 255.623232},
    {"back-leg1", 0.55992845, 0.82481195, -0.730951826, 0.631827762, 610.731185, 223.327621},
    {"back-leg2", 0.67704155, 0.70198386, -0.627465761, 0.765727857, 633.688252, 193.358596},
    {"back-leg3", 0.540316683, 0.830330773, -0.729463938, 0.624026136, 661.446955, 167.6325},
    {"back-leg4", -0.0865695273, 1.03303679, -0.908952892, -0.0765880902, 683.599939, 137.724478},
    {"back-leg5", -0.473437927, 0.894422941, -0.772157918, -0.506702663, 680.050589, 100.45741},
    {"back-leg6", -0.741721776, 0.62561123, -0.529446707, -0.816903321, 660.639634, 68.798935},
    {"back-leg7", -0.786055364, 0.557152029, -0.469698778, -0.865136093, 630.229041, 47.09162},
    {"back-leg8", -0.732532694, 0.651287013, -0.558599474, -0.79419782, 598.000771, 27.8339701},
    {"front-arm1", -0.81193684, -0.344324287, 0.297778518, -0.938850779, 662.737152, 328.564369},
    {"front-arm2", -0.900632878, -0.115913331, 0.105103869, -0.993259331, 631.615613, 339.97822},
    {"front-arm3", -0.096143053, 0.9950113, -0.958912075, -0.0997623922, 599.490038, 343.727275},
    {"front-arm4", 0.234693844, 0.97864371, -1.11732496, 0.205563952, 596.350967, 312.418796},
    {"front-leg1", 0.668173718, 0.876468641, -0.843772462, 0.694065416, 579.269968, 230.949013},
    {"front-leg2", 0.633745619, 0.910419935, -0.86529766, 0.648193306, 604.126031, 199.560677},
    {"front-leg3", 0.438619581, 1.00761772, -0.976826054, 0.48144574, 627.701368, 167.371604},
    {"front-leg4", -0.43755203, 1.02304369, -0.914060869, -0.4424248, 644.018016, 131.033675},
    {"front-leg5", -0.995755066, 0.439752803, -0.331135412, -1.00000208, 627.741081, 97.0306105},
    {"front-leg6", -1.05997134, -0.0354044506, 0.123455243, -1.09829379, 590.698992, 84.7123732},
    {"front-leg7", -1.03976131, -0.152144162, 0.231294771, -1.09023857, 551.268058, 89.3049046},
    {"front-leg8", -1.05390811, -0.100799082, 0.20564911, -1.08181563, 512.588937, 97.9090665},
};
// hero-pro.json
// skin weapon/morningstar, animation attack at 0.2: name, a, b, c, d, x, y.
constexpr ExpectedBone k_hero[] = {
    {"chain1", 0.999360252, -0.0357643425, 0.035764335, 0.999360251, 160.883347, 45.1720417},
    {"chain2", 0.999143919, -0.0413694623, 0.0413694317, 0.999143917, 168.878229, 45.4581564},
    {"chain3", 0.999256446, -0.0385559178, 0.038555864, 0.999256444, 176.871381, 45.7891118},
    {"chain4", 0.999255334, -0.0385847521, 0.0385846751, 0.999255331, 184.865432, 46.0975587},
    {"chain5", 0.999195748, -0.0400982081, 0.0400981079, 0.999195743, 192.859475, 46.4062362},
    {"chain6", 0.999410546, -0.0343303117, 0.0343301883, 0.999410541, 200.853041, 46.727021},
    {"chain7", 0.999439833, -0.0334668546, 0.033466708, 0.999439828, 208.848325, 47.0016625},
    {"chain8", 0.998857623, -0.0477856118, 0.0477854421, 0.998857615, 216.843844, 47.2693962},
};
// tank-pro.skel
// skin -, animation drive at 1.3: name, a, b, c, d, x, y.
constexpr ExpectedBone k_tank[] = {
    {"tread", -0.949835734, 0.292435809, -0.290463478, -0.956285155, -792.326998, 341.365669},
    {"tread10", 0.997084833, 0.00585523604, 0.000825923945, 0.996164556, -768.086915, 11.779907},
    {"tread11", 0.999850829, 0.00431470425, -0.00620588705, 0.993377141, -686.325958, 11.8476327},
    {"tread12", 0.998900423, -0.00161171935, -0.00337027482, 0.994354536, -604.33819, 11.33875},
    {"tread13", 0.997985289, 0.000706024398, -0.00687340472, 0.995256035, -522.428356, 11.0623874},
    {"tread14", 0.995804997, -0.00187838798, -0.00466251047, 0.997448793, -440.593562, 10.4987683},
    {"tread15", 0.99418572, -0.0127636499, 0.00800193071, 0.998961845, -358.937552, 10.1164424},
    {"tread16", 0.994191653, -0.0162982189, 0.0114414098, 0.998871049, -277.414323, 10.7726007},
    {"tread17", 0.994263453, -0.00501751486, 0.000202112053, 0.998985448, -195.890608, 11.7107963},
    {"tread18", 0.994240216, 0.00318419755, -0.0079778743, 0.998984265, -114.361005, 11.7273695},
    {"tread19", 0.973039191, -0.210106958, 0.204404346, 0.976639963, -32.8333069, 11.0731838},
    {"tread2", -0.992937747, -0.0253018873, 0.0251313366, -0.999679856, -870.213528, 317.547663},
    {"tread20", 0.871525662, -0.48502564, 0.478535058, 0.87335806, 46.9559068, 27.8343402},
    {"tread21", 0.818295885, -0.571247692, 0.564638519, 0.819639077, 118.421011, 67.0742149},
    {"tread22", 0.548322147, -0.835956884, 0.829329311, 0.547072901, 185.521274, 113.374573},
    {"tread23", -0.289528696, -0.954327196, 0.951148329, -0.295476817, 230.48369, 181.379577},
    {"tread24", -0.907576967, -0.403563837, 0.406124966, -0.913816034, 206.742337, 259.37374},
    {"tread25", -0.992303063, 0.0444751394, -0.0436924587, -0.99900176, 132.321025, 292.675987},
    {"tread26", -0.915846944, -0.389662878, 0.384997879, -0.920717549, 50.9521743, 289.093206},
    {"tread27", -0.968766561, -0.226345522, 0.221555149, -0.973513906, -24.147275, 320.663032},
    {"tread28", -0.875610414, 0.469575356, -0.474992917, -0.879627234, -103.586133, 338.830554},
    {"tread29", -0.993845194, 0.110238932, -0.110760652, -0.987121138, -175.386191, 299.881141},
    {"tread3", -0.980469372, 0.162947872, -0.159871921, -0.98647135, -951.634424, 319.608426},
    {"tread30", -0.970982651, -0.215393953, 0.221522426, -0.973798186, -256.881497, 290.798775},
    {"tread31", -0.894449233, -0.432030227, 0.433700923, -0.900983305, -336.502075, 308.963614},
    {"tread32", -0.946280232, 0.31954354, -0.313247001, -0.943863825, -409.846912, 344.52709},
    {"tread33", -0.95360567, 0.289536838, -0.283101319, -0.955622961, -487.441893, 318.840843},
    {"tread34", -0.989103101, -0.0961377916, 0.0931416518, -0.995145299, -565.63756, 295.626542},
    {"tread35", -0.887266623, -0.446796724, 0.447867069, -0.893925427, -646.744015, 303.26415},
    {"tread36", -0.994901161, -0.0330579688, 0.0394557495, -0.997035129, -719.499878, 339.98925},
    {"tread4", -0.49005138, 0.871693547, -0.865805549, -0.48676248, -1032.03291, 306.498935},
    {"tread5", 0.378288697, 0.919445298, -0.922083588, 0.384495536, -1072.21713, 235.502884},
    {"tread6", 0.674118125, 0.732034802, -0.730107009, 0.68058101, -1041.19747, 159.892027},
    {"tread7", 0.758516649, 0.644641908, -0.641352138, 0.764404143, -985.919786, 100.023247},
    {"tread8", 0.904917352, 0.409491361, -0.412407876, 0.910998413, -923.721426, 47.4323662},
    {"tread9", 0.993064495, 0.0212499385, -0.0223782127, 0.999713718, -849.518203, 13.6149204},
};
// mix-and-match-pro.json
// skin full-skins/girl, animation walk at 0.4: name, a, b, c, d, x, y.
constexpr ExpectedBone k_mix_and_match[] = {
    {"arm-front-up-2", 0.206483203, 0.977945594, -0.966817389, 0.208859834, -33.3295249, 433.086865},
    {"arm-front-up-3", 0.682465546, 0.707091239, -0.682435541, 0.707122333, 12.335961, 312.457192},
    {"arm-front-up-4", 0.569725518, 0.810462667, -0.788236483, 0.585790304, -6.74414662, 338.855232},
    {"arm-front-up-5", 0.353134981, 0.931226154, -0.902334831, 0.364441854, -18.5706371, 369.074425},
    {"arm-front-up-6", 0.234212161, 0.970607546, -0.944572267, 0.240667834, -26.4144024, 400.70815},
    {"arm-front-up-7", 0.729012031, 0.676615057, -0.669884383, 0.736336933, 35.1917321, 289.602426},
    {"leg-front-1", -0.0254947018, 0.999663011, -0.981789127, -0.0259589132, 3.8693098, 279.799693},
    {"leg-front-2", -0.0421599787, 0.999045138, -0.964060498, -0.043689962, 2.95277527, 244.504374},
    {"leg-front-3", -0.103622274, 0.994373729, -0.972723177, -0.105928688, 1.43712404, 209.846399},
    {"leg-front-4", -0.256755305, 0.963674656, -0.926424916, -0.267078935, -2.28809672, 174.877},
    {"leg-front-5", -0.477408622, 0.867669692, -0.833230127, -0.497141133, -11.5184499, 141.572025},
    {"leg-front-6", -0.625927151, 0.769797519, -0.754889641, -0.638288163, -28.6812899, 111.617402},
    {"leg-front-7", -0.66296059, 0.725893597, -0.699671233, -0.687807012, -51.183371, 84.479119},
    {"leg-front-8", -0.687894829, 0.712965986, -0.699438805, -0.701198619, -75.0168041, 59.3259382},
    {"arm-back-up-2", -0.398465683, 0.883562233, -0.751780669, -0.468313779, 69.6294286, 413.11848},
    {"arm-back-up-3", -0.411514303, 0.877767458, -0.75396306, -0.479086948, 56.2848129, 387.941345},
    {"arm-back-up-4", -0.439463816, 0.851385211, -0.713295981, -0.524540977, 42.5031989, 362.691123},
    {"arm-back-up-5", -0.551158481, 0.75693658, -0.638407665, -0.653488353, 27.7855557, 338.80284},
    {"arm-back-up-6", -0.669376439, 0.60456453, -0.508038482, -0.796556177, 9.32725814, 317.422567},
    {"arm-back-up-7", -0.723982579, 0.536983243, -0.46084601, -0.843592919, -13.0901588, 300.408359},
    {"leg-back-1", 0.271552711, 0.962750264, -0.966882167, 0.270392177, 81.6734563, 38.7396468},
    {"leg-back-2", 0.267521997, 0.962998408, -0.955905168, 0.269507081, 72.0560405, 73.1044376},
    {"leg-back-3", 0.268566613, 0.963527059, -0.966967901, 0.267610926, 62.4010707, 107.866934},
    {"leg-back-4", 0.261112286, 0.964468703, -0.953207288, 0.264197128, 53.014084, 142.134736},
    {"leg-back-5", 0.257485106, 0.965494147, -0.954595828, 0.260424756, 43.7574945, 176.452456},
    {"leg-back-6", 0.259782056, 0.96604269, -0.971275502, 0.25838251, 34.4183296, 211.36981},
    {"leg-back-7", 0.255324111, 0.966160943, -0.956363002, 0.257939979, 25.2394278, 245.75106},
    {"leg-back-8", 0.259502118, 0.966110604, -0.971252219, 0.258128462, 15.9103266, 280.667577},
};

// Poses `data` as the script does: skin, setup pose, the animation at `time` (if any) with MixBlend.setup, world
// transforms. Returns the pose for the caller to check.
SkeletonPose pose_at(const SkeletonData& data, const char* skin, const char* animation, float time) {
    SkeletonPose pose = create_pose(data);
    if (skin != nullptr) set_skin(pose, test::skin_index(data, skin));
    set_to_setup_pose(pose);
    if (animation != nullptr) {
        const Index a = data.animation_names.find(animation);
        EXPECT_NE(a, k_none) << animation;
        apply_animation(data, a, pose, time, time, true, nullptr, 1, MixBlend::setup, MixDirection::in);
    }
    update_world_transform(pose, Physics::update);
    return pose;
}

void expect_bones(const SkeletonPose& pose, std::span<const ExpectedBone> expected) {
    for (const ExpectedBone& e : expected) {
        SCOPED_TRACE(e.name);
        const BoneWorld& w = test::world_of(pose, e.name);
        EXPECT_NEAR(w.a, e.a, k_matrix_tolerance);
        EXPECT_NEAR(w.b, e.b, k_matrix_tolerance);
        EXPECT_NEAR(w.c, e.c, k_matrix_tolerance);
        EXPECT_NEAR(w.d, e.d, k_matrix_tolerance);
        EXPECT_NEAR(w.x, e.x, k_position_tolerance);
        EXPECT_NEAR(w.y, e.y, k_position_tolerance);
    }
}

SkeletonData load_rig() {
    auto data = load_skeleton_json(k_rig, "path rig");
    EXPECT_TRUE(data.ok()) << (data.ok() ? "" : data.error().message());
    return data.ok() ? std::move(data.value()) : SkeletonData{};
}

TEST(PathConstraint, every_mode_matches_the_official_runtime_in_the_setup_pose) {
    const SkeletonData data = load_rig();
    ASSERT_EQ(data.path_constraints.size(), 7u);
    expect_bones(pose_at(data, nullptr, nullptr, 0), k_rig_setup);
}

TEST(PathConstraint, path_timelines_and_path_deform_match_the_official_runtime) {
    const SkeletonData data = load_rig();
    ASSERT_EQ(data.path_constraints.size(), 7u);
    expect_bones(pose_at(data, nullptr, "move", 0.6f), k_rig_move);
}

TEST(PathConstraint, constant_speed_spaces_bones_evenly_along_a_straight_path) {
    // First principles: the "line" path's control points are evenly spaced on y = 0 from x = -40 to 280, so its
    // constant-speed positions are linear in distance. Its two curves run from x = 0 (the first point after the
    // leading handle) to x = 240; 50% spacing puts the (tangent-rotated) bones at 0, 120 and 240, along +x.
    const SkeletonData data = load_rig();
    const SkeletonPose pose = pose_at(data, nullptr, nullptr, 0);
    const char* bones[] = {"g1", "g2", "g3"};
    for (int i = 0; i < 3; ++i) {
        const BoneWorld& w = test::world_of(pose, bones[i]);
        EXPECT_NEAR(w.x, 120.0 * i, 1e-3) << bones[i];
        EXPECT_NEAR(w.y, 0.0, 1e-3) << bones[i];
        EXPECT_NEAR(w.a, 1.0, 1e-6) << bones[i];
        EXPECT_NEAR(w.c, 0.0, 1e-6) << bones[i];
    }
}

TEST(PathConstraint, zero_mixes_leave_the_bones_alone) {
    const SkeletonData data = load_rig();
    SkeletonPose pose = create_pose(data);
    set_to_setup_pose(pose);
    for (PathPose& p : pose.path) p.mix_rotate = p.mix_x = p.mix_y = 0;
    update_world_transform(pose, Physics::update);
    // a1 at (5, 5) under the root, unrotated: its setup world transform.
    const BoneWorld& w = test::world_of(pose, "a1");
    EXPECT_FLOAT_EQ(w.x, 5);
    EXPECT_FLOAT_EQ(w.y, 5);
    EXPECT_FLOAT_EQ(w.a, 1);
    EXPECT_FLOAT_EQ(w.c, 0);
}

TEST(PathConstraint, scratch_size_covers_spaces_lengths_positions_world_and_curves) {
    const SkeletonData data = load_rig();
    ASSERT_EQ(data.path_constraints.size(), 7u);
    // "chain-proportional": 4 bones on a closed path of 9 vertices (18 floats, 3 curves): spaces 5, lengths 4,
    // positions 3 * 5 + 2, world 18 + 2 (the closing point), curve lengths 3 + 1.
    EXPECT_EQ(detail::path_scratch_size(data, data.path_names.find("chain-proportional")), 5u + 4 + 17 + 20 + 4);
    // "tangent-fixed": 3 bones, 18-float open path: 4 + 3 + 14 + 20 + 4.
    EXPECT_EQ(detail::path_scratch_size(data, data.path_names.find("tangent-fixed")), 4u + 3 + 14 + 20 + 4);
}

TEST(PathConstraint, closed_path_without_vertices_leaves_the_bones_where_they_are) {
    // A closed constant-speed path of zero vertices (which a binary export can hold: the fuzzer found one). The two
    // world-vertex reads of a closed path get a count of -2 and an offset of -2 there, which the official runtime's
    // loops skip; unsigned, they wrapped around and wrote four billion floats. Such a path has no curve to place the
    // bones on: they keep their world transforms (the official runtime goes on to NaN matrices), and in particular do
    // not move to the positions the previous frame's path left in the scratch.
    const char* json = R"({"skeleton": {"spine": "4.2.22"},
        "bones": [{"name": "root"}, {"name": "b", "parent": "root", "x": 30, "y": 20, "length": 10}],
        "slots": [{"name": "p", "bone": "root", "attachment": "line"}],
        "path": [{"name": "c", "bones": ["b"], "target": "p"}],
        "skins": [{"name": "default", "attachments": {"p": {
            "line": {"type": "path", "vertexCount": 6, "lengths": [100, 100],
                     "vertices": [90, -50, 100, -50, 110, -50, 190, -50, 200, -50, 210, -50]},
            "empty": {"type": "path", "closed": true, "vertexCount": 0, "vertices": [], "lengths": []}}}}]})";
    Result<SkeletonData> data = load_skeleton_json(json, "empty-path.json");
    ASSERT_TRUE(data.ok()) << data.error().message();
    SkeletonPose pose = create_pose(*data);
    set_to_setup_pose(pose);
    update_world_transform(pose, Physics::update);
    const BoneWorld& b = test::world_of(pose, "b");
    EXPECT_NEAR(b.x, 100, 1e-3);  // on the line's first point
    EXPECT_NEAR(b.y, -50, 1e-3);

    const Index empty = find_attachment(pose, 0, data->attachment_names.find("empty"));
    ASSERT_NE(empty, k_none);
    const AttachmentData& path = data->attachments[static_cast<std::size_t>(empty)];
    ASSERT_TRUE(path.closed);
    ASSERT_EQ(path.world_vertices_length, 0u);
    set_slot_attachment(pose, 0, empty);
    update_world_transform(pose, Physics::update);
    EXPECT_FLOAT_EQ(b.x, 30);
    EXPECT_FLOAT_EQ(b.y, 20);
    EXPECT_FLOAT_EQ(b.a, 1);
    EXPECT_FLOAT_EQ(b.c, 0);
}

struct ExampleCase {
    const char* folder;
    const char* file;
    const char* skin;
    const char* animation;
    float time;
    std::span<const ExpectedBone> expected;
};

class PathConstraintExamples : public ::testing::TestWithParam<ExampleCase> {};

TEST_P(PathConstraintExamples, constrained_bones_match_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const ExampleCase& c = GetParam();
    auto data = load_skeleton_file((test::examples_dir() / c.folder / c.file).string());
    ASSERT_TRUE(data.ok()) << data.error().message();
    expect_bones(pose_at(data.value(), c.skin, c.animation, c.time), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, PathConstraintExamples,
    ::testing::Values(ExampleCase{"vine", "vine-pro.json", nullptr, "grow", 3.1f, k_vine},
                      ExampleCase{"stretchyman", "stretchyman-pro.json", nullptr, "sneak", 0.7f, k_stretchyman},
                      ExampleCase{"hero", "hero-pro.json", "weapon/morningstar", "attack", 0.2f, k_hero},
                      ExampleCase{"tank", "tank-pro.skel", nullptr, "drive", 1.3f, k_tank},
                      ExampleCase{"mix-and-match", "mix-and-match-pro.json", "full-skins/girl", "walk", 0.4f,
                                  k_mix_and_match}),
    [](const ::testing::TestParamInfo<ExampleCase>& param_info) {
        std::string name = param_info.param.folder;
        std::replace(name.begin(), name.end(), '-', '_');
        return name;
    });

}  // namespace
}  // namespace spinegpu
