// sin/cos and atan2 in double, inline, accurate to within one ulp of the exact result (the libm calls they replace
// are correctly rounded or nearly so: results agree with them to the last bit or one ulp, ~1e-16 relative). They
// exist because the per-frame pass calls them about a hundred times per character and glibc's versions cost 90 to
// 140 instructions per call behind a PLT call; these cost about a third of that.
//
// The algorithms and coefficients are fdlibm's (FreeBSD msun: e_rem_pio2.c, k_sin.c, k_cos.c, s_atan.c,
// e_atan2.c; Copyright (C) 1993 by Sun Microsystems, Inc., "Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice is preserved."). Inputs outside the ranges handled here
// (huge angles, zeros, infinities and NaN for atan2) go to the libm functions, so the results are defined everywhere.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace spinegpu::detail {

namespace trig {

// The high 32 bits of a double (sign, exponent, top of the mantissa), as fdlibm's GET_HIGH_WORD.
inline std::int32_t high_word(double x) { return static_cast<std::int32_t>(std::bit_cast<std::uint64_t>(x) >> 32); }

// k_sin.c: sin(x + y) for |x| <= pi/4, y the tail of x, into `out`. A template so that world_group.cpp evaluates
// the same expression on four lanes (T a GCC vector of doubles: each operation is the scalar one, lane by lane); the
// vectors go by reference, since this function has no AVX target of its own to pass them in registers.
template <class T>
[[gnu::always_inline]] inline void kernel_sin(const T& x, const T& y, T& out) {
    constexpr double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                     S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                     S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
    const T z = x * x, w = z * z;
    const T r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    const T v = z * x;
    out = x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

// k_cos.c: cos(x + y) for |x| <= pi/4, y the tail of x, into `out` (a template as kernel_sin).
template <class T>
[[gnu::always_inline]] inline void kernel_cos(const T& x, const T& y, T& out) {
    constexpr double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                     C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                     C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
    const T z = x * x, w = z * z;
    const T r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    const T hz = 0.5 * z, v = 1.0 - hz;
    out = v + (((1.0 - v) - hz) + (z * r - x * y));
}

// e_rem_pio2.c's constants: 2/pi, pi/2 in three parts and their tails, and 1.5 * 2^52 (adding it pushes the fraction
// out of the mantissa: round to nearest integer without a libm call).
inline constexpr double k_invpio2 = 6.36619772367581382433e-01;
inline constexpr double k_pio2_1 = 1.57079632673412561417e+00, k_pio2_1t = 6.07710050650619224932e-11;
inline constexpr double k_pio2_2 = 6.07710050630396597660e-11, k_pio2_2t = 2.02226624879595063154e-21;
inline constexpr double k_pio2_3 = 2.02226624871116645580e-21, k_pio2_3t = 8.47842766036889956997e-32;
inline constexpr double k_round_shift = 6755399441055744.0;

// e_rem_pio2.c's medium-size reduction: x - n * pi/2 as y0 + y1, returns n. Precondition: |x| < 2^20 * pi/2.
inline int rem_pio2(double x, double& y0, double& y1) {
    const double fn = (x * k_invpio2 + k_round_shift) - k_round_shift;
    const int n = static_cast<int>(fn);
    double r = x - fn * k_pio2_1;
    double w = fn * k_pio2_1t;  // first round: good to 85 bits
    const int j = (high_word(x) >> 20) & 0x7ff;
    y0 = r - w;
    if (j - ((high_word(y0) >> 20) & 0x7ff) > 16) {
        // x is close to a multiple of pi/2: cancellation; a second round is good to 118 bits.
        double t = r;
        w = fn * k_pio2_2;
        r = t - w;
        w = fn * k_pio2_2t - ((t - r) - w);
        y0 = r - w;
        if (j - ((high_word(y0) >> 20) & 0x7ff) > 49) {
            // A third round, good to 151 bits, covers every double in range.
            t = r;
            w = fn * k_pio2_3;
            r = t - w;
            w = fn * k_pio2_3t - ((t - r) - w);
            y0 = r - w;
        }
    }
    y1 = (r - y0) - w;
    return n;
}

}  // namespace trig

// Sets sin(x) and cos(x) (x in radians).
inline void fast_sincos(double x, double& sin_x, double& cos_x) {
    const std::int32_t ix = trig::high_word(x) & 0x7fffffff;
    if (ix <= 0x3fe921fb) {  // |x| ~<= pi/4: no reduction
        if (ix < 0x3e400000) {  // |x| < 2^-27: sin x = x and cos x = 1 to the last bit
            sin_x = x;
            cos_x = 1.0;
            return;
        }
        trig::kernel_sin(x, 0.0, sin_x);
        trig::kernel_cos(x, 0.0, cos_x);
        return;
    }
    if (ix >= 0x413921fb) {  // |x| >= 2^20 * pi/2 (or not finite): far outside any pose's angles
        sin_x = std::sin(x);
        cos_x = std::cos(x);
        return;
    }
    double y0, y1;
    const int n = trig::rem_pio2(x, y0, y1);
    double s, c;
    trig::kernel_sin(y0, y1, s);
    trig::kernel_cos(y0, y1, c);
    switch (n & 3) {
        case 0: sin_x = s; cos_x = c; break;
        case 1: sin_x = c; cos_x = -s; break;
        case 2: sin_x = -s; cos_x = -c; break;
        default: sin_x = -c; cos_x = s; break;
    }
}

inline double fast_sin(double x) {
    double s, c;
    fast_sincos(x, s, c);
    return s;
}

inline double fast_cos(double x) {
    double s, c;
    fast_sincos(x, s, c);
    return c;
}

namespace trig {

// s_atan.c's tables: atan of 0.5, 1, 1.5 and infinity in two parts, and the series' coefficients.
inline constexpr double k_atanhi[] = {4.63647609000806093515e-01, 7.85398163397448278999e-01,
                                      9.82793723247329054082e-01, 1.57079632679489655800e+00};
inline constexpr double k_atanlo[] = {2.26987774529616870924e-17, 3.06161699786838301793e-17,
                                      1.39033110312309984516e-17, 6.12323399573676603587e-17};

// s_atan.c's series on the reduced argument x: x * (s1 + s2) approximates x - atan(x). A template for four lanes as
// kernel_sin.
template <class T>
[[gnu::always_inline]] inline void atan_series(const T& x, T& s1, T& s2) {
    constexpr double aT[] = {
        3.33333333333329318027e-01,  -1.99999999998764832476e-01, 1.42857142725034663711e-01,
        -1.11111104054623557880e-01, 9.09088713343650656196e-02,  -7.69187620504482999495e-02,
        6.66107313738753120669e-02,  -5.83357013379057348645e-02, 4.97687799461593236017e-02,
        -3.65315727442169155270e-02, 1.62858201153657823623e-02};
    const T z = x * x, w = z * z;
    s1 = z * (aT[0] + w * (aT[2] + w * (aT[4] + w * (aT[6] + w * (aT[8] + w * aT[10])))));
    s2 = w * (aT[1] + w * (aT[3] + w * (aT[5] + w * (aT[7] + w * aT[9]))));
}

// s_atan.c: atan(x) for finite x with |x| < 2^66.
inline double atan_finite(double x) {
    const std::int32_t hx = high_word(x), ix = hx & 0x7fffffff;
    int id;
    if (ix < 0x3fdc0000) {  // |x| < 0.4375
        if (ix < 0x3e400000) return x;  // |x| < 2^-27
        id = -1;
    } else {
        x = std::abs(x);
        if (ix < 0x3ff30000) {      // |x| < 1.1875
            if (ix < 0x3fe60000) {  // 7/16 <= |x| < 11/16
                id = 0;
                x = (2.0 * x - 1.0) / (2.0 + x);
            } else {  // 11/16 <= |x| < 19/16
                id = 1;
                x = (x - 1.0) / (x + 1.0);
            }
        } else if (ix < 0x40038000) {  // |x| < 2.4375
            id = 2;
            x = (x - 1.5) / (1.0 + 1.5 * x);
        } else {  // 2.4375 <= |x| < 2^66
            id = 3;
            x = -1.0 / x;
        }
    }
    double s1, s2;
    atan_series(x, s1, s2);
    if (id < 0) return x - x * (s1 + s2);
    const double r = k_atanhi[id] - ((x * (s1 + s2) - k_atanlo[id]) - x);
    return hx < 0 ? -r : r;
}

// e_atan2.c's pi in two parts.
inline constexpr double k_atan2_pi = 3.1415926535897931160e+00, k_atan2_pi_lo = 1.2246467991473531772e-16;

}  // namespace trig

// atan2(y, x) in radians, as std::atan2.
inline double fast_atan2(double y, double x) {
    constexpr double pi = trig::k_atan2_pi, pi_lo = trig::k_atan2_pi_lo;
    const std::int32_t hx = trig::high_word(x), hy = trig::high_word(y);
    const std::int32_t ix = hx & 0x7fffffff, iy = hy & 0x7fffffff;
    // y = 0 is common (an unrotated bone's c): atan2(+-0, x) is +-0 for x > 0, +-pi for x < 0.
    if (y == 0 && x != 0 && ix < 0x7ff00000) return hx >= 0 ? y : hy >= 0 ? pi : -pi;
    // Zeros, subnormals, infinities, NaN, and quotients beyond 2^+-60: the rare cases, left to libm.
    const std::int32_t k = (iy - ix) >> 20;
    constexpr auto k_normal_span = static_cast<std::uint32_t>(0x7ff00000 - 0x00100000);
    if (static_cast<std::uint32_t>(ix - 0x00100000) >= k_normal_span ||
        static_cast<std::uint32_t>(iy - 0x00100000) >= k_normal_span || static_cast<std::uint32_t>(k + 60) > 120)
        return std::atan2(y, x);
    const double z = trig::atan_finite(std::abs(y / x));
    const bool y_negative = hy < 0;
    if (hx >= 0) return y_negative ? -z : z;
    return y_negative ? (z - pi_lo) - pi : pi - (z - pi_lo);
}

}  // namespace spinegpu::detail
