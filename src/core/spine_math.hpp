// Angle constants as the official Spine 4.2 runtime defines them. Its MathUtils uses its own pi, 3.1415927 (a
// float's pi, used in double arithmetic), for degree/radian conversions and angle wrapping; a few formulas use the
// true pi (Math.PI) instead, and those places say so. Using the same constants keeps our angles bit-compatible.
#pragma once

namespace spinegpu::detail {

inline constexpr double k_spine_pi = 3.1415927;
inline constexpr double k_spine_pi2 = k_spine_pi * 2;
inline constexpr double k_deg_rad = k_spine_pi / 180;
inline constexpr double k_rad_deg = 180 / k_spine_pi;
// Math.PI, for the formulas that use it.
inline constexpr double k_true_pi = 3.141592653589793;

// Spine's MathUtils.signum.
inline double signum(double value) { return value > 0 ? 1 : value < 0 ? -1 : 0; }

}  // namespace spinegpu::detail
