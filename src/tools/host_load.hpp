// How busy the host was while a bench row ran: the share of this machine's CPU time that its hypervisor gave to
// other machines (Linux's "steal" time in /proc/stat). On a shared virtual machine a frame's CPU time depends on
// it, so `spinegpu bench` prints it next to every row.
#pragma once

#include <cstdint>
#include <optional>

namespace spinegpu::tools {

// The all-CPU counters of /proc/stat, in clock ticks.
struct CpuTicks {
    std::uint64_t steal = 0;  // time the hypervisor ran something else while a CPU of this machine wanted to run
    std::uint64_t total = 0;  // every state's time (user, nice, system, idle, iowait, irq, softirq, steal)
};

// The counters now; nullopt where /proc/stat is missing or its first line is not the all-CPU line.
std::optional<CpuTicks> read_cpu_ticks();

// The steal share, in percent, of the CPU time that passed between two readings: 0 if no tick passed (a run shorter
// than the counters' resolution counts no steal), nullopt if either reading is missing or the counters went back.
std::optional<double> steal_percent(const std::optional<CpuTicks>& before, const std::optional<CpuTicks>& after);

}  // namespace spinegpu::tools
