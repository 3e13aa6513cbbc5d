// Skinning and slot colours, shared by the skinning pass (skin.comp) and the vertex-shader path (collapse.vert).
// Include after bindings.glsl.

uint mul_rgba8(uint a, uint b) {
    return packUnorm4x8(unpackUnorm4x8(a) * unpackUnorm4x8(b));
}

// Entry `position` of the character's draw list (a type-local attachment id, or k_no_attachment): from the word
// buffer, or from its type's setup lists when it sent none (k_setup_list_bit).
uint draw_list_entry(GpuCharacter ch, GpuSkeletonType type, uint position) {
    uint word;
    if ((ch.draw_first & k_setup_list_bit) != 0u)
        word = setup_lists[type.setup_list_first + (ch.draw_first & ~k_setup_list_bit) + (position >> 1)];
    else
        word = words[ch.draw_first + (position >> 1)];
    return (position & 1u) == 0u ? (word & 0xFFFFu) : (word >> 16);
}

// The slot's light and dark colours this frame: its entry in the character's colour section when a colour timeline
// animates it, else its setup colours.
void slot_colors(GpuCharacter ch, GpuSkeletonType type, uint slot, out uint light, out uint dark) {
    GpuSlotSetup setup = slot_setups[type.slot_setup_first + slot];
    light = setup.light;
    dark = setup.dark;
    uint entry = setup.sections & 0xFFFFu;
    if (ch.color_first != k_no_section && entry != k_no_entry) {
        light = words[ch.color_first + entry * 2u];
        dark = words[ch.color_first + entry * 2u + 1u];
    }
}

// Where the slot's deform floats start in the word buffer, or k_no_section when it is not deformed this frame.
uint slot_deform(GpuCharacter ch, GpuSkeletonType type, uint slot) {
    uint entry = slot_setups[type.slot_setup_first + slot].sections >> 16;
    if (ch.deform_first == k_no_section || entry == k_no_entry) return k_no_section;
    return words[ch.deform_first + entry];
}

// The world position of vertex `local` of attachment `att` (bind form `bv`): the weighted sum of its influences
// through the character's bones, with the deform at word `deform` (offsets per influence for weighted attachments,
// positions per vertex for the others) when it is not k_no_section.
vec2 skin_vertex(GpuCharacter ch, GpuAttachment att, GpuBindVertex bv, uint local, uint deform) {
    vec2 world = vec2(0.0);
    for (uint k = 0u; k < bv.influence_count; ++k) {
        uint inf = bv.influence_first + k;
        GpuInfluence f = influences[inf];
        vec2 p = vec2(f.x, f.y);
        if (deform != k_no_section) {
            if ((att.material & k_material_weighted_bit) != 0u) {
                uint d = deform + (inf - att.influence_first) * 2u;
                p += vec2(uintBitsToFloat(words[d]), uintBitsToFloat(words[d + 1u]));
            } else {
                uint d = deform + local * 2u;
                p = vec2(uintBitsToFloat(words[d]), uintBitsToFloat(words[d + 1u]));
            }
        }
        uint b = (ch.bone_first + f.bone) * 6u;
        world += f.weight * vec2(p.x * bones[b] + p.y * bones[b + 1u] + bones[b + 4u],
                                 p.x * bones[b + 2u] + p.y * bones[b + 3u] + bones[b + 5u]);
    }
    return world;
}
