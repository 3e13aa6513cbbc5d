// The tile passes' check of llvmpipe's loop guard, shared by triangles.comp and raster.comp. Include after the push
// constant block `push` (GpuTilePush); it declares specialization constant 1.
//
// On a CPU implementation (k_loop_canary = 1): llvmpipe ends every loop of a shader invocation once all of them
// together have run 65,535 times (LP_MAX_TGSI_LOOP_ITERATIONS, its guard against endless loops), so a tile or a
// character with more work than that would be drawn wrong, without an error. loops_ran_out() tells: a last loop
// that must run twice runs once when the guard has tripped. Such an invocation sets counters[4], and the renderer
// reports an error when it waits for the frame.
layout(constant_id = 1) const uint k_loop_canary = 0u;

// Whether the driver's loop guard tripped in this invocation (k_loop_canary; false elsewhere): a loop whose two
// passes the compiler cannot see (its bound comes from memory) ran only once.
bool loops_ran_out() {
    if (k_loop_canary == 0u) return false;
    uint passes = 0u;
    for (uint i = 0u; i < 2u + (push.width >> 31); ++i) ++passes;
    return passes != 2u;
}
