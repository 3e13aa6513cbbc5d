// Building the curve table of a curve timeline exactly as the official runtime stores it, shared by the JSON and
// binary loaders. The table holds one curve type per frame (linear, stepped, or k_curve_bezier + the offset of
// the frame's bezier samples), then 18 floats (9 x, y samples) per bezier segment. The runtime samples a bezier
// by forward differencing into those 9 points and interpolates linearly between them; the loaders must produce
// the same points, so the arithmetic follows the official one: doubles, stored as floats.
#pragma once

#include <cstdint>
#include <vector>

#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu::detail {

// Appends a curve table for `frame_count` frames with room for `bezier_count` beziers and returns its range. Every
// frame starts linear except the last, which is stepped (as the official constructor leaves it).
Range append_curve_table(std::vector<float>& curves, std::uint32_t frame_count, std::uint32_t bezier_count);

// Marks `frame` stepped.
void set_stepped(std::vector<float>& curves, Range table, std::uint32_t frame);

// Stores bezier number `bezier` (0-based within the table) for value `value` of `frame`, from (time1, value1) to
// (time2, value2) with control points (cx1, cy1), (cx2, cy2). Value 0 also sets the frame's curve type.
// Precondition: bezier < the table's bezier capacity.
void set_bezier(std::vector<float>& curves, Range table, std::uint32_t frame_count, std::uint32_t bezier,
                std::uint32_t frame, std::uint32_t value, double time1, double value1, double cx1, double cy1,
                double cx2, double cy2, double time2, double value2);

// Stores a deform timeline's bezier, whose value always runs from 0 to 1: the official deform timeline samples it
// with its own folding of the constants (different from set_bezier with values 0 and 1 by a few ulps), reproduced
// here so that both loaders store the same samples as the official runtime.
void set_deform_bezier(std::vector<float>& curves, Range table, std::uint32_t frame_count, std::uint32_t bezier,
                       std::uint32_t frame, double time1, double cx1, double cy1, double cx2, double cy2,
                       double time2);

// Shrinks the table at the end of `curves` to `bezier_count` beziers (JSON knows the count only afterwards).
// Precondition: the table is the last thing in `curves`.
void shrink_curve_table(std::vector<float>& curves, Range& table, std::uint32_t frame_count,
                        std::uint32_t bezier_count);

}  // namespace spinegpu::detail
