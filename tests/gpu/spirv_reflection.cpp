// SPIR-V reflection through SPIRV-Cross's C API: see spirv_reflection.hpp.
#include "spirv_reflection.hpp"

#include <spirv_cross_c.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>

namespace spinegpu::test {
namespace {

struct ContextDeleter {
    void operator()(spvc_context_s* c) const { spvc_context_destroy(c); }
};

bool read_words(const std::string& path, std::vector<std::uint32_t>& words) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.empty() || bytes.size() % 4 != 0) return false;
    words.resize(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    return true;
}

// The layout of struct type `id`: its name, declared size and members.
StructLayout struct_layout(spvc_compiler compiler, spvc_type_id id) {
    StructLayout layout;
    spvc_type type = spvc_compiler_get_type_handle(compiler, id);
    layout.name = spvc_compiler_get_name(compiler, id);
    std::size_t size = 0;
    if (spvc_compiler_get_declared_struct_size(compiler, type, &size) == SPVC_SUCCESS)
        layout.size = static_cast<std::uint32_t>(size);
    for (unsigned m = 0; m < spvc_type_get_num_member_types(type); ++m) {
        unsigned offset = 0;
        spvc_compiler_type_struct_member_offset(compiler, type, m, &offset);
        layout.members.push_back({spvc_compiler_get_member_name(compiler, id, m), offset});
    }
    return layout;
}

ReflectedBuffer reflect_buffer(spvc_compiler compiler, const spvc_reflected_resource& r) {
    ReflectedBuffer b;
    b.block = spvc_compiler_get_name(compiler, r.base_type_id);
    b.set = spvc_compiler_get_decoration(compiler, r.id, SpvDecorationDescriptorSet);
    b.binding = spvc_compiler_get_decoration(compiler, r.id, SpvDecorationBinding);
    spvc_type block = spvc_compiler_get_type_handle(compiler, r.base_type_id);
    if (spvc_type_get_num_member_types(block) != 1) return b;
    spvc_type member = spvc_compiler_get_type_handle(compiler, spvc_type_get_member_type(block, 0));
    if (spvc_type_get_num_array_dimensions(member) == 0 || spvc_type_get_basetype(member) != SPVC_BASETYPE_STRUCT)
        return b;
    b.struct_array = true;
    b.element = struct_layout(compiler, spvc_type_get_base_type_id(member));
    unsigned stride = 0;
    spvc_compiler_type_struct_member_array_stride(compiler, block, 0, &stride);
    b.element.size = stride;
    return b;
}

}  // namespace

bool workgroup_bytes(const std::string& path, std::uint32_t spec_id, std::uint32_t value, std::uint64_t& bytes,
                     std::string& error) {
    std::vector<std::uint32_t> words;
    if (!read_words(path, words) || words.size() < 5 || words[0] != 0x07230203u) {
        error = path + ": cannot read a SPIR-V module";
        return false;
    }
    // Opcodes and operands of the SPIR-V specification (section 3).
    enum : std::uint32_t {
        k_decorate = 71, k_type_int = 21, k_type_float = 22, k_type_vector = 23, k_type_array = 28,
        k_type_pointer = 32, k_constant = 43, k_spec_constant = 50, k_spec_constant_op = 52, k_variable = 59,
        k_decoration_spec_id = 1, k_storage_workgroup = 4, k_op_iadd = 128, k_op_isub = 130, k_op_imul = 132
    };
    std::map<std::uint32_t, std::uint32_t> spec_ids;     // constant id -> SpecId
    std::map<std::uint32_t, std::uint64_t> type_bytes;  // type id -> size
    std::map<std::uint32_t, std::uint64_t> constants;   // id -> value (spec constants specialized)
    std::map<std::uint32_t, std::uint32_t> pointee;     // Workgroup pointer type id -> pointee type id
    bytes = 0;
    for (std::size_t at = 5; at < words.size();) {
        const std::uint32_t count = words[at] >> 16, op = words[at] & 0xFFFFu;
        if (count == 0 || at + count > words.size()) {
            error = path + ": a truncated instruction at word " + std::to_string(at);
            return false;
        }
        const std::uint32_t* w = &words[at];
        if (op == k_decorate && count >= 4 && w[2] == k_decoration_spec_id) {
            spec_ids[w[1]] = w[3];
        } else if ((op == k_type_int || op == k_type_float) && count >= 3) {
            type_bytes[w[1]] = w[2] / 8;
        } else if (op == k_type_vector && count >= 4 && type_bytes.count(w[2])) {
            type_bytes[w[1]] = type_bytes[w[2]] * w[3];
        } else if (op == k_type_array && count >= 4 && type_bytes.count(w[2]) && constants.count(w[3])) {
            type_bytes[w[1]] = type_bytes[w[2]] * constants[w[3]];
        } else if (op == k_type_pointer && count >= 4 && w[2] == k_storage_workgroup) {
            pointee[w[1]] = w[3];
        } else if ((op == k_constant || op == k_spec_constant) && count >= 4) {
            const auto spec = spec_ids.find(w[2]);
            constants[w[2]] = op == k_spec_constant && spec != spec_ids.end() && spec->second == spec_id ? value : w[3];
        } else if (op == k_spec_constant_op && count >= 6) {
            if (!constants.count(w[4]) || !constants.count(w[5]) ||
                (w[3] != k_op_iadd && w[3] != k_op_isub && w[3] != k_op_imul)) {
                error = path + ": a specialization constant of operation " + std::to_string(w[3]) +
                        " this count does not follow";
                return false;
            }
            const std::uint64_t x = constants[w[4]], y = constants[w[5]];
            constants[w[2]] = w[3] == k_op_iadd ? x + y : w[3] == k_op_isub ? x - y : x * y;
        } else if (op == k_variable && count >= 4 && w[3] == k_storage_workgroup) {
            const auto type = pointee.find(w[1]);
            if (type == pointee.end() || !type_bytes.count(type->second)) {
                error = path + ": shared variable " + std::to_string(w[2]) + " is of a type this count does not size";
                return false;
            }
            bytes += type_bytes[type->second];
        }
        at += count;
    }
    return true;
}

bool reflect_shader(const std::string& path, ReflectedShader& out, std::string& error) {
    std::vector<std::uint32_t> words;
    if (!read_words(path, words)) {
        error = path + ": cannot read a SPIR-V module";
        return false;
    }
    spvc_context raw = nullptr;
    if (spvc_context_create(&raw) != SPVC_SUCCESS) {
        error = "spvc_context_create failed";
        return false;
    }
    std::unique_ptr<spvc_context_s, ContextDeleter> context(raw);
    spvc_parsed_ir ir = nullptr;
    spvc_compiler compiler = nullptr;
    spvc_resources resources = nullptr;
    if (spvc_context_parse_spirv(raw, words.data(), words.size(), &ir) != SPVC_SUCCESS ||
        spvc_context_create_compiler(raw, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) !=
            SPVC_SUCCESS ||
        spvc_compiler_create_shader_resources(compiler, &resources) != SPVC_SUCCESS) {
        error = path + ": " + spvc_context_get_last_error_string(raw);
        return false;
    }
    auto list = [&](spvc_resource_type type) {
        const spvc_reflected_resource* items = nullptr;
        std::size_t count = 0;
        spvc_resources_get_resource_list_for_type(resources, type, &items, &count);
        return std::vector<spvc_reflected_resource>(items, items + count);
    };
    for (const spvc_reflected_resource& r : list(SPVC_RESOURCE_TYPE_STORAGE_BUFFER))
        out.buffers.push_back(reflect_buffer(compiler, r));
    for (spvc_resource_type type : {SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, SPVC_RESOURCE_TYPE_STORAGE_IMAGE})
        for (const spvc_reflected_resource& r : list(type))
            out.images.push_back({r.name, spvc_compiler_get_decoration(compiler, r.id, SpvDecorationDescriptorSet),
                                  spvc_compiler_get_decoration(compiler, r.id, SpvDecorationBinding)});
    for (const spvc_reflected_resource& r : list(SPVC_RESOURCE_TYPE_PUSH_CONSTANT)) {
        std::size_t size = 0;
        spvc_compiler_get_declared_struct_size(compiler, spvc_compiler_get_type_handle(compiler, r.base_type_id),
                                               &size);
        out.push_constant_sizes.push_back(static_cast<std::uint32_t>(size));
    }
    if (spvc_compiler_get_execution_model(compiler) == SpvExecutionModelGLCompute)
        out.local_size_x = spvc_compiler_get_execution_mode_argument_by_index(compiler, SpvExecutionModeLocalSize, 0);
    return true;
}

std::vector<std::string> compare_layout(const StructLayout& cpp, const StructLayout& shader) {
    std::vector<std::string> problems;
    const std::string where = cpp.name + " vs shader " + shader.name + ": ";
    if (cpp.size != shader.size)
        problems.push_back(where + "C++ size " + std::to_string(cpp.size) + ", shader array stride " +
                           std::to_string(shader.size));
    std::map<std::string, std::uint32_t> table;
    for (const MemberOffset& m : cpp.members) table[m.name] = m.offset;
    std::map<std::string, std::uint32_t> declared;
    for (const MemberOffset& m : shader.members) {
        declared[m.name] = m.offset;
        auto it = table.find(m.name);
        if (it == table.end())
            problems.push_back(where + "the shader declares " + m.name + " (offset " + std::to_string(m.offset) +
                               "), the C++ table lacks it");
        else if (it->second != m.offset)
            problems.push_back(where + m.name + " at offset " + std::to_string(it->second) + " in C++, " +
                               std::to_string(m.offset) + " in the shader");
    }
    for (const MemberOffset& m : cpp.members)
        if (!declared.count(m.name))
            problems.push_back(where + "the C++ table has " + m.name + ", the shader lacks it");
    return problems;
}

}  // namespace spinegpu::test
