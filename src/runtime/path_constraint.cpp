// Path constraints: bones placed along, and rotated to, a path attachment's cubic Bezier curves (Spine 4.2's
// PathConstraint.update and computeWorldPositions).
//
// Arithmetic is done in doubles, as the official runtime does it (JS numbers); only the scratch arrays and the bone
// fields are floats. The scratch is SkeletonPose::path_scratch, laid out per constraint of n bones as
//   spaces    n + 1                 distance from each bone to the next (spaces[0] is always 0)
//   lengths   n                     each bone's world length (chain scale)
//   positions 3 (n + 1) + 2         x, y, rotation of each bone along the path
//   world     max(8, V + 2)         the path's world vertices (V = world vertices length; +2 closes a closed path)
//   curves    V / 6 + 1             cumulative curve lengths (constant speed)
// where V is the world vertices length of the path attachment the target slot shows now. path_scratch_size asks for
// the longest path any skin puts in the target slot, so every attachment the slot can show fits.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "constraints.hpp"
#include "../core/fast_trig.hpp"
#include "../core/spine_math.hpp"

namespace spinegpu::detail {
namespace {

constexpr double k_epsilon = 0.00001;  // bones shorter than this keep the constraint's spacing as is

// The longest path attachment (world vertices length) that any skin puts in `slot`.
std::uint32_t longest_path(const SkeletonData& data, Index slot) {
    std::uint32_t longest = 0;
    for (const SkinData& skin : data.skins)
        for (const SkinEntry& e : skin.entries) {
            if (e.slot != slot) continue;
            const AttachmentData& a = data.attachments[static_cast<std::size_t>(e.attachment)];
            if (a.type == AttachmentType::path) longest = std::max(longest, a.world_vertices_length);
        }
    return longest;
}

// Offsets of the scratch sections for a constraint of `bones` bones and a path of `longest` floats.
struct ScratchLayout {
    std::uint32_t spaces, lengths, positions, world, curves, end;
};

ScratchLayout scratch_layout(std::uint32_t bones, std::uint32_t longest) {
    ScratchLayout l{};
    l.spaces = 0;
    l.lengths = l.spaces + bones + 1;
    l.positions = l.lengths + bones;
    l.world = l.positions + 3 * (bones + 1) + 2;
    l.curves = l.world + std::max<std::uint32_t>(8, longest + 2);
    l.end = l.curves + longest / 6 + 1;
    return l;
}

// The point (and, with `tangents`, the tangent angle) at parameter p of the curve (x1,y1) (cx1,cy1) (cx2,cy2)
// (x2,y2), into out[0..2]. Without `tangents` the rotation slot is left as it was.
void add_curve_position(double p, double x1, double y1, double cx1, double cy1, double cx2, double cy2, double x2,
                        double y2, float* out, bool tangents) {
    if (p == 0 || std::isnan(p)) {
        out[0] = static_cast<float>(x1);
        out[1] = static_cast<float>(y1);
        out[2] = static_cast<float>(fast_atan2(cy1 - y1, cx1 - x1));
        return;
    }
    const double tt = p * p, ttt = tt * p, u = 1 - p, uu = u * u, uuu = uu * u;
    const double ut = u * p, ut3 = ut * 3, uut3 = u * ut3, utt3 = ut3 * p;
    const double x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt;
    const double y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
    out[0] = static_cast<float>(x);
    out[1] = static_cast<float>(y);
    if (!tangents) return;
    if (p < 0.001)
        out[2] = static_cast<float>(fast_atan2(cy1 - y1, cx1 - x1));
    else
        out[2] = static_cast<float>(fast_atan2(y - (y1 * uu + cy1 * ut * 2 + cy2 * tt),
                                               x - (x1 * uu + cx1 * ut * 2 + cx2 * tt)));
}

// Before the start of an open path: continue along the line from the first point through its handle (p <= 0).
void add_before_position(double p, const float* w, float* out) {
    const double x1 = w[0], y1 = w[1];
    const double r = fast_atan2(w[3] - y1, w[2] - x1);
    out[0] = static_cast<float>(x1 + p * fast_cos(r));
    out[1] = static_cast<float>(y1 + p * fast_sin(r));
    out[2] = static_cast<float>(r);
}

// Past the end of an open path: continue along the line from the last handle through the last point (p >= 0).
void add_after_position(double p, const float* w, float* out) {
    const double x1 = w[2], y1 = w[3];
    const double r = fast_atan2(y1 - w[1], x1 - w[0]);
    out[0] = static_cast<float>(x1 + p * fast_cos(r));
    out[1] = static_cast<float>(y1 + p * fast_sin(r));
    out[2] = static_cast<float>(r);
}

// Index of the first cumulative length >= p among `count` lengths, and p mapped to [0, 1] within it. Stops at the
// last one, so inconsistent data cannot run past the array.
template <typename Lengths>
std::uint32_t find_span(const Lengths& lengths, std::uint32_t first, std::uint32_t count, double& p) {
    std::uint32_t i = first;
    while (i + 1 < count && p > lengths[i]) ++i;
    if (i == 0)
        p /= lengths[0];
    else {
        const double prev = lengths[i - 1];
        p = (p - prev) / (lengths[i] - prev);
    }
    return i;
}

struct PathContext {
    SkeletonPose& pose;
    Index slot;
    Index attachment;
    const AttachmentData& path;
    const PathConstraintData& data;
    double position;
    std::uint32_t spaces_count;
    bool tangents;
    const float* spaces;
    float* positions;
    float* world;
    float* curves;
};

void path_world(const PathContext& c, std::uint32_t start, std::uint32_t count, float* out, std::uint32_t offset) {
    compute_vertex_attachment_world(c.pose, c.slot, c.attachment, start, count, out, offset, 2);
}

double spacing_multiplier(SpacingMode mode, double path_length, std::uint32_t spaces_count) {
    switch (mode) {
        case SpacingMode::percent: return path_length;
        case SpacingMode::proportional: return path_length / spaces_count;
        default: return 1;
    }
}

// Positions along a path whose curves are parameterized uniformly (constant speed off): the stored curve lengths
// place each bone on a curve, and the curve's parameter is used directly. Returns false, placing nothing, for a path
// with fewer curves than its lengths need (see apply_path_constraint).
bool positions_by_parameter(const PathContext& c) {
    const SkeletonData& data = *c.pose.data;
    const std::uint32_t vertices_length = c.path.world_vertices_length;
    const bool closed = c.path.closed;
    const std::span<const float> lengths = data.float_span(c.path.lengths);
    const std::uint32_t curve_count = vertices_length / 6 - (closed ? 1 : 2);
    if (curve_count >= lengths.size()) return false;
    const double path_length = lengths[curve_count];
    double position = c.position;
    if (c.data.position_mode == PositionMode::percent) position *= path_length;
    const double multiplier = spacing_multiplier(c.data.spacing_mode, path_length, c.spaces_count);

    constexpr std::int64_t k_before = -2, k_after = -3;
    std::int64_t prev_curve = -1;
    float* world = c.world;
    for (std::uint32_t i = 0, o = 0, curve = 0; i < c.spaces_count; i++, o += 3) {
        const double space = c.spaces[i] * multiplier;
        position += space;
        double p = position;
        if (closed) {
            p = std::fmod(p, path_length);
            if (p < 0) p += path_length;
            curve = 0;
        } else if (p < 0) {
            if (prev_curve != k_before) {
                prev_curve = k_before;
                path_world(c, 2, 4, world, 0);
            }
            add_before_position(p, world, c.positions + o);
            continue;
        } else if (p > path_length) {
            if (prev_curve != k_after) {
                prev_curve = k_after;
                path_world(c, vertices_length - 6, 4, world, 0);
            }
            add_after_position(p - path_length, world, c.positions + o);
            continue;
        }
        curve = find_span(lengths, curve, curve_count + 1, p);
        if (curve != prev_curve) {
            prev_curve = curve;
            if (closed && curve == curve_count) {
                path_world(c, vertices_length - 4, 4, world, 0);
                path_world(c, 0, 4, world, 4);
            } else {
                path_world(c, curve * 6 + 2, 8, world, 0);
            }
        }
        add_curve_position(p, world[0], world[1], world[2], world[3], world[4], world[5], world[6], world[7],
                           c.positions + o, c.tangents || (i > 0 && space == 0));
    }
    return true;
}

// Positions along a path traversed at constant speed: curve lengths from 4 forward-difference samples each, then
// within a curve 10 segment lengths, so equal spacing gives equal distances along the path. Returns false, placing
// nothing, for a path without a whole curve (see apply_path_constraint).
bool positions_at_constant_speed(const PathContext& c) {
    const bool closed = c.path.closed;
    std::uint32_t vertices_length = c.path.world_vertices_length;
    std::uint32_t curve_count = vertices_length / 6;
    float* world = c.world;
    if (closed) {
        vertices_length += 2;
        // A closed path without vertices: the official runtime's two calls get a negative count and a negative
        // offset there and write nothing inside the array.
        if (vertices_length >= 4) {
            path_world(c, 2, vertices_length - 4, world, 0);
            path_world(c, 0, 2, world, vertices_length - 4);
        }
        world[vertices_length - 2] = world[0];
        world[vertices_length - 1] = world[1];
    } else {
        if (curve_count < 2) return false;  // an open path needs two points
        curve_count--;
        vertices_length -= 4;
        path_world(c, 2, vertices_length, world, 0);
    }
    if (curve_count == 0) return false;

    // Curve lengths.
    double path_length = 0;
    double x1 = world[0], y1 = world[1], cx1 = 0, cy1 = 0, cx2 = 0, cy2 = 0, x2 = 0, y2 = 0;
    for (std::uint32_t i = 0, w = 2; i < curve_count; i++, w += 6) {
        cx1 = world[w];
        cy1 = world[w + 1];
        cx2 = world[w + 2];
        cy2 = world[w + 3];
        x2 = world[w + 4];
        y2 = world[w + 5];
        const double tmpx = (x1 - cx1 * 2 + cx2) * 0.1875, tmpy = (y1 - cy1 * 2 + cy2) * 0.1875;
        const double dddfx = ((cx1 - cx2) * 3 - x1 + x2) * 0.09375, dddfy = ((cy1 - cy2) * 3 - y1 + y2) * 0.09375;
        double ddfx = tmpx * 2 + dddfx, ddfy = tmpy * 2 + dddfy;
        double dfx = (cx1 - x1) * 0.75 + tmpx + dddfx * 0.16666667, dfy = (cy1 - y1) * 0.75 + tmpy + dddfy * 0.16666667;
        path_length += std::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx;
        dfy += ddfy;
        ddfx += dddfx;
        ddfy += dddfy;
        path_length += std::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx;
        dfy += ddfy;
        path_length += std::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx + dddfx;
        dfy += ddfy + dddfy;
        path_length += std::sqrt(dfx * dfx + dfy * dfy);
        c.curves[i] = static_cast<float>(path_length);
        x1 = x2;
        y1 = y2;
    }
    // The stored (float) total, so a position at the very end finds the last curve.
    path_length = c.curves[curve_count - 1];

    double position = c.position;
    if (c.data.position_mode == PositionMode::percent) position *= path_length;
    const double multiplier = spacing_multiplier(c.data.spacing_mode, path_length, c.spaces_count);

    double segments[10] = {};
    double curve_length = 0;
    std::int64_t prev_curve = -1;
    for (std::uint32_t i = 0, o = 0, curve = 0, segment = 0; i < c.spaces_count; i++, o += 3) {
        const double space = c.spaces[i] * multiplier;
        position += space;
        double p = position;
        if (closed) {
            p = std::fmod(p, path_length);
            if (p < 0) p += path_length;
            curve = 0;
        } else if (p < 0) {
            add_before_position(p, world, c.positions + o);
            continue;
        } else if (p > path_length) {
            add_after_position(p - path_length, world + vertices_length - 4, c.positions + o);
            continue;
        }
        curve = find_span(c.curves, curve, curve_count, p);

        // Segment lengths of the curve.
        if (curve != prev_curve) {
            prev_curve = curve;
            const std::uint32_t ii = curve * 6;
            x1 = world[ii];
            y1 = world[ii + 1];
            cx1 = world[ii + 2];
            cy1 = world[ii + 3];
            cx2 = world[ii + 4];
            cy2 = world[ii + 5];
            x2 = world[ii + 6];
            y2 = world[ii + 7];
            const double tmpx = (x1 - cx1 * 2 + cx2) * 0.03, tmpy = (y1 - cy1 * 2 + cy2) * 0.03;
            const double dddfx = ((cx1 - cx2) * 3 - x1 + x2) * 0.006, dddfy = ((cy1 - cy2) * 3 - y1 + y2) * 0.006;
            double ddfx = tmpx * 2 + dddfx, ddfy = tmpy * 2 + dddfy;
            double dfx = (cx1 - x1) * 0.3 + tmpx + dddfx * 0.16666667;
            double dfy = (cy1 - y1) * 0.3 + tmpy + dddfy * 0.16666667;
            curve_length = std::sqrt(dfx * dfx + dfy * dfy);
            segments[0] = curve_length;
            for (int s = 1; s < 8; s++) {
                dfx += ddfx;
                dfy += ddfy;
                ddfx += dddfx;
                ddfy += dddfy;
                curve_length += std::sqrt(dfx * dfx + dfy * dfy);
                segments[s] = curve_length;
            }
            dfx += ddfx;
            dfy += ddfy;
            curve_length += std::sqrt(dfx * dfx + dfy * dfy);
            segments[8] = curve_length;
            dfx += ddfx + dddfx;
            dfy += ddfy + dddfy;
            curve_length += std::sqrt(dfx * dfx + dfy * dfy);
            segments[9] = curve_length;
            segment = 0;
        }

        // Weight by segment length: the parameter advances 0.1 per segment.
        p *= curve_length;
        while (segment + 1 < 10 && p > segments[segment]) ++segment;
        if (segment == 0)
            p /= segments[0];
        else {
            const double prev = segments[segment - 1];
            p = segment + (p - prev) / (segments[segment] - prev);
        }
        add_curve_position(p * 0.1, x1, y1, cx1, cy1, cx2, cy2, x2, y2, c.positions + o,
                           c.tangents || (i > 0 && space == 0));
    }
    return true;
}

// The distance from each bone to the next along the path (spaces[1..]; spaces[0] is 0) and, for chain scale, each
// bone's world length, from the bones' current world transforms and the constraint's spacing mode.
void compute_spaces(const SkeletonPose& pose, const PathConstraintData& cd, std::span<const Index> bones,
                    double spacing, bool scale, std::uint32_t spaces_count, float* spaces, float* lengths) {
    const SkeletonData& data = *pose.data;
    spaces[0] = 0;
    auto world_length = [&](Index bone) {
        const BoneWorld& w = pose.world[static_cast<std::size_t>(bone)];
        const double len = data.bones[static_cast<std::size_t>(bone)].length;
        const double x = len * w.a, y = len * w.c;
        return std::sqrt(x * x + y * y);
    };
    auto setup_length = [&](std::uint32_t i) -> double {
        return data.bones[static_cast<std::size_t>(bones[i])].length;
    };
    switch (cd.spacing_mode) {
        case SpacingMode::percent:
            if (scale)
                for (std::uint32_t i = 0; i + 1 < spaces_count; i++)
                    lengths[i] = static_cast<float>(world_length(bones[i]));
            for (std::uint32_t i = 1; i < spaces_count; i++) spaces[i] = static_cast<float>(spacing);
            break;
        case SpacingMode::proportional: {
            // Each bone's share of the spacing is proportional to its world length.
            double sum = 0;
            for (std::uint32_t i = 0; i + 1 < spaces_count; i++) {
                if (setup_length(i) < k_epsilon) {
                    if (scale) lengths[i] = 0;
                    spaces[i + 1] = static_cast<float>(spacing);
                } else {
                    const double length = world_length(bones[i]);
                    if (scale) lengths[i] = static_cast<float>(length);
                    spaces[i + 1] = static_cast<float>(length);
                    sum += length;
                }
            }
            if (sum > 0) {
                sum = spaces_count / sum * spacing;
                for (std::uint32_t i = 1; i < spaces_count; i++) spaces[i] = static_cast<float>(spaces[i] * sum);
            }
            break;
        }
        default: {
            // Length and fixed spacing, scaled by how much the bone is stretched in the world.
            const bool length_spacing = cd.spacing_mode == SpacingMode::length;
            for (std::uint32_t i = 0; i + 1 < spaces_count; i++) {
                const double setup = setup_length(i);
                if (setup < k_epsilon) {
                    if (scale) lengths[i] = 0;
                    spaces[i + 1] = static_cast<float>(spacing);
                } else {
                    const double length = world_length(bones[i]);
                    if (scale) lengths[i] = static_cast<float>(length);
                    spaces[i + 1] = static_cast<float>((length_spacing ? setup + spacing : spacing) * length / setup);
                }
            }
        }
    }
}

}  // namespace

std::uint32_t path_scratch_size(const SkeletonData& data, Index constraint) {
    assert(constraint >= 0 && static_cast<std::size_t>(constraint) < data.path_constraints.size());
    const PathConstraintData& c = data.path_constraints[static_cast<std::size_t>(constraint)];
    return scratch_layout(c.bones.count, longest_path(data, c.target)).end;
}

void apply_path_constraint(SkeletonPose& pose, Index constraint, Physics, bool update_applied) {
    const SkeletonData& data = *pose.data;
    const PathConstraintData& cd = data.path_constraints[static_cast<std::size_t>(constraint)];
    const PathPose& state = pose.path[static_cast<std::size_t>(constraint)];
    const Index slot = cd.target;
    const Index attachment = pose.slots[static_cast<std::size_t>(slot)].attachment;
    if (attachment == k_none || data.attachments[static_cast<std::size_t>(attachment)].type != AttachmentType::path)
        return;
    const double mix_rotate = state.mix_rotate, mix_x = state.mix_x, mix_y = state.mix_y;
    if (mix_rotate == 0 && mix_x == 0 && mix_y == 0) return;

    const std::span<const Index> bones = data.index_span(cd.bones);
    const std::uint32_t bone_count = static_cast<std::uint32_t>(bones.size());
    const bool tangents = cd.rotate_mode == RotateMode::tangent;
    const bool scale = cd.rotate_mode == RotateMode::chain_scale;
    const std::uint32_t spaces_count = tangents ? bone_count : bone_count + 1;

    const AttachmentData& path = data.attachments[static_cast<std::size_t>(attachment)];
    const ScratchLayout layout = scratch_layout(bone_count, path.world_vertices_length);
    assert(pose.path_scratch.size() >= layout.end && "path_scratch sized by path_scratch_size");
    if (pose.path_scratch.size() < layout.end) return;
    float* scratch = pose.path_scratch.data();
    float* spaces = scratch + layout.spaces;
    float* lengths = scratch + layout.lengths;
    float* positions = scratch + layout.positions;

    compute_spaces(pose, cd, bones, state.spacing, scale, spaces_count, spaces, lengths);

    const PathContext context{.pose = pose,
                              .slot = slot,
                              .attachment = attachment,
                              .path = path,
                              .data = cd,
                              .position = state.position,
                              .spaces_count = spaces_count,
                              .tangents = tangents,
                              .spaces = spaces,
                              .positions = positions,
                              .world = scratch + layout.world,
                              .curves = scratch + layout.curves};
    // A path without a whole curve (which no editor export holds) places nothing, and the bones keep their world
    // transforms. The official runtime goes on with undefined array entries there and gives the bones NaN matrices;
    // positions left over in the scratch from another constraint or frame would be worse than either.
    const bool placed = path.constant_speed ? positions_at_constant_speed(context) : positions_by_parameter(context);
    if (!placed) return;

    double bone_x = positions[0], bone_y = positions[1];
    double offset_rotation = cd.offset_rotation;
    bool tip = false;
    if (offset_rotation == 0) {
        tip = cd.rotate_mode == RotateMode::chain;
    } else {
        const BoneWorld& p = pose.world[static_cast<std::size_t>(data.slots[static_cast<std::size_t>(slot)].bone)];
        offset_rotation *= static_cast<double>(p.a) * p.d - static_cast<double>(p.b) * p.c > 0 ? k_deg_rad : -k_deg_rad;
    }
    for (std::uint32_t i = 0, p = 3; i < bone_count; i++, p += 3) {
        const Index bone = bones[i];
        BoneWorld& w = pose.world[static_cast<std::size_t>(bone)];
        w.x = static_cast<float>(w.x + (bone_x - w.x) * mix_x);
        w.y = static_cast<float>(w.y + (bone_y - w.y) * mix_y);
        const double x = positions[p], y = positions[p + 1], dx = x - bone_x, dy = y - bone_y;
        if (scale) {
            const double length = lengths[i];
            if (length != 0) {
                const double s = (std::sqrt(dx * dx + dy * dy) / length - 1) * mix_rotate + 1;
                w.a = static_cast<float>(w.a * s);
                w.c = static_cast<float>(w.c * s);
            }
        }
        bone_x = x;
        bone_y = y;
        if (mix_rotate > 0) {
            const double a = w.a, b = w.b, c = w.c, d = w.d;
            double r;
            if (tangents)
                r = positions[p - 1];
            else if (spaces[i + 1] == 0)
                r = positions[p + 2];
            else
                r = fast_atan2(dy, dx);
            r -= fast_atan2(c, a);
            if (tip) {
                const double cos = fast_cos(r), sin = fast_sin(r);
                const double length = data.bones[static_cast<std::size_t>(bone)].length;
                bone_x += (length * (cos * a - sin * c) - dx) * mix_rotate;
                bone_y += (length * (sin * a + cos * c) - dy) * mix_rotate;
            } else {
                r += offset_rotation;
            }
            if (r > k_spine_pi)
                r -= k_spine_pi2;
            else if (r < -k_spine_pi)
                r += k_spine_pi2;
            r *= mix_rotate;
            const double cos = fast_cos(r), sin = fast_sin(r);
            w.a = static_cast<float>(cos * a - sin * c);
            w.b = static_cast<float>(cos * b - sin * d);
            w.c = static_cast<float>(sin * a + cos * c);
            w.d = static_cast<float>(sin * b + cos * d);
        }
        if (update_applied) update_applied_transform(pose, bone);
    }
}

}  // namespace spinegpu::detail
