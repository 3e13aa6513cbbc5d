#include "curve_builder.hpp"

#include <cassert>

namespace spinegpu::detail {

Range append_curve_table(std::vector<float>& curves, std::uint32_t frame_count, std::uint32_t bezier_count) {
    Range table{static_cast<std::uint32_t>(curves.size()), frame_count + bezier_count * k_bezier_size};
    curves.resize(curves.size() + table.count, k_curve_linear);
    if (frame_count > 0) curves[table.offset + frame_count - 1] = k_curve_stepped;
    return table;
}

void set_stepped(std::vector<float>& curves, Range table, std::uint32_t frame) {
    assert(frame < table.count);
    curves[table.offset + frame] = k_curve_stepped;
}

void set_bezier(std::vector<float>& curves, Range table, std::uint32_t frame_count, std::uint32_t bezier,
                std::uint32_t frame, std::uint32_t value, double time1, double value1, double cx1, double cy1,
                double cx2, double cy2, double time2, double value2) {
    std::uint32_t i = frame_count + bezier * k_bezier_size;
    assert(i + k_bezier_size <= table.count);
    if (value == 0) curves[table.offset + frame] = static_cast<float>(k_curve_bezier + i);
    // Forward differencing of the cubic over 10 equal steps of its parameter: the first differences use
    // 1/10 (0.3 = 3/10), the second 1/100 (0.03 x 2 x 3), the third 1/1000 (0.006 = 6/1000).
    double tmpx = (time1 - cx1 * 2 + cx2) * 0.03, tmpy = (value1 - cy1 * 2 + cy2) * 0.03;
    double dddx = ((cx1 - cx2) * 3 - time1 + time2) * 0.006, dddy = ((cy1 - cy2) * 3 - value1 + value2) * 0.006;
    double ddx = tmpx * 2 + dddx, ddy = tmpy * 2 + dddy;
    double dx = (cx1 - time1) * 0.3 + tmpx + dddx * 0.16666667, dy = (cy1 - value1) * 0.3 + tmpy + dddy * 0.16666667;
    double x = time1 + dx, y = value1 + dy;
    float* out = curves.data() + table.offset + i;
    for (int n = 0; n < k_bezier_size; n += 2) {
        out[n] = static_cast<float>(x);
        out[n + 1] = static_cast<float>(y);
        dx += ddx;
        dy += ddy;
        ddx += dddx;
        ddy += dddy;
        x += dx;
        y += dy;
    }
}

void set_deform_bezier(std::vector<float>& curves, Range table, std::uint32_t frame_count, std::uint32_t bezier,
                       std::uint32_t frame, double time1, double cx1, double cy1, double cx2, double cy2,
                       double time2) {
    std::uint32_t i = frame_count + bezier * k_bezier_size;
    assert(i + k_bezier_size <= table.count);
    curves[table.offset + frame] = k_curve_bezier + static_cast<float>(i);
    // Forward differencing as in set_bezier, with value1 = 0 and value2 = 1 folded into the constants the way the
    // official deform timeline folds them (0.33333333 * 0.018 instead of 1 * 0.006).
    double tmpx = (time1 - cx1 * 2 + cx2) * 0.03, tmpy = cy2 * 0.03 - cy1 * 0.06;
    double dddx = ((cx1 - cx2) * 3 - time1 + time2) * 0.006, dddy = (cy1 - cy2 + 0.33333333) * 0.018;
    double ddx = tmpx * 2 + dddx, ddy = tmpy * 2 + dddy;
    double dx = (cx1 - time1) * 0.3 + tmpx + dddx * 0.16666667, dy = cy1 * 0.3 + tmpy + dddy * 0.16666667;
    double x = time1 + dx, y = dy;
    float* out = curves.data() + table.offset + i;
    for (int n = 0; n < k_bezier_size; n += 2) {
        out[n] = static_cast<float>(x);
        out[n + 1] = static_cast<float>(y);
        dx += ddx;
        dy += ddy;
        ddx += dddx;
        ddy += dddy;
        x += dx;
        y += dy;
    }
}

void shrink_curve_table(std::vector<float>& curves, Range& table, std::uint32_t frame_count,
                        std::uint32_t bezier_count) {
    assert(table.offset + table.count == curves.size());
    std::uint32_t size = frame_count + bezier_count * k_bezier_size;
    if (size < table.count) {
        table.count = size;
        curves.resize(table.offset + size);
    }
}

}  // namespace spinegpu::detail
