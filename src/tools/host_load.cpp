// Reads Linux's /proc/stat all-CPU line ("cpu  user nice system idle iowait irq softirq steal guest guest_nice").
#include "host_load.hpp"

#include <cstdio>
#include <cstring>

namespace spinegpu::tools {

std::optional<CpuTicks> read_cpu_ticks() {
    std::FILE* file = std::fopen("/proc/stat", "r");
    if (file == nullptr) return std::nullopt;
    char line[512];
    const bool read = std::fgets(line, sizeof line, file) != nullptr;
    std::fclose(file);
    if (!read || std::strncmp(line, "cpu ", 4) != 0) return std::nullopt;
    // Guest time is already counted in user and nice, so the first eight fields make the total.
    unsigned long long field[8] = {};
    if (std::sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &field[0], &field[1], &field[2], &field[3],
                    &field[4], &field[5], &field[6], &field[7]) != 8)
        return std::nullopt;
    CpuTicks ticks;
    for (unsigned long long value : field) ticks.total += value;
    ticks.steal = field[7];
    return ticks;
}

std::optional<double> steal_percent(const std::optional<CpuTicks>& before, const std::optional<CpuTicks>& after) {
    if (!before || !after || after->total < before->total || after->steal < before->steal) return std::nullopt;
    if (after->total == before->total) return 0.0;  // under one tick: no steal counted either
    return 100.0 * static_cast<double>(after->steal - before->steal) /
           static_cast<double>(after->total - before->total);
}

}  // namespace spinegpu::tools
