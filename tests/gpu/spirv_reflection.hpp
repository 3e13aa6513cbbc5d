// What a compiled shader declares, read with SPIRV-Cross's reflection (C API), and the comparison of a C++ struct's
// layout with it (STYLE.md habit 5: every GPU struct is checked against the shader's own reflection).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spinegpu::test {

// A struct member: its name and byte offset.
struct MemberOffset {
    std::string name;
    std::uint32_t offset = 0;
};

// A struct's layout: on the C++ side built with sizeof/offsetof, on the shader side read from SPIR-V.
struct StructLayout {
    std::string name;                 // "GpuInfluence"
    std::uint32_t size = 0;           // sizeof on the C++ side; the array stride on the shader side
    std::vector<MemberOffset> members;
};

// A storage buffer of a shader: `Influences { GpuInfluence influences[]; }` has block "Influences", set and binding
// from its decorations, and, when its only member is a runtime array of structs, that element's layout.
struct ReflectedBuffer {
    std::string block;
    std::uint32_t set = 0, binding = 0;
    bool struct_array = false;    // the block's member is an array of structs
    StructLayout element;         // valid when struct_array; element.size is the array stride
};

// A sampled image (or combined image sampler) of a shader.
struct ReflectedImage {
    std::string name;
    std::uint32_t set = 0, binding = 0;
};

struct ReflectedShader {
    std::vector<ReflectedBuffer> buffers;
    std::vector<ReflectedImage> images;
    std::vector<std::uint32_t> push_constant_sizes;  // declared size of each push constant block (0 or 1 of them)
    std::uint32_t local_size_x = 0;                  // compute shaders: the workgroup's x size
};

// Reads the SPIR-V file at `path` and reflects it. Returns false with `error` set when the file cannot be read or
// SPIRV-Cross rejects it.
bool reflect_shader(const std::string& path, ReflectedShader& out, std::string& error);

// The bytes of shared memory (Workgroup variables) the compute shader at `path` declares, with specialization
// constant `spec_id` set to `value` (the others at their defaults), counting scalars, vectors and arrays of them
// tightly packed. Returns false with `error` set when the file cannot be read or declares shared data of another
// kind, or sizes an array by an expression other than +, - and * of constants.
bool workgroup_bytes(const std::string& path, std::uint32_t spec_id, std::uint32_t value, std::uint64_t& bytes,
                     std::string& error);

// Compares a C++ layout (`cpp`, from sizeof/offsetof) with a shader's (`shader`, from reflection): size against
// array stride, and every member by name. Returns one line per disagreement (empty when they agree): a member with
// another offset, a member the shader declares that the C++ table lacks, and one the table has that the shader lacks.
std::vector<std::string> compare_layout(const StructLayout& cpp, const StructLayout& shader);

}  // namespace spinegpu::test
