// Descriptor bindings shared by the skinning pass and the draw (set 0). One set layout serves both pipelines.
#extension GL_GOOGLE_include_directive : require
#include "spinegpu/gpu/gpu_layout.h"

layout(std430, set = 0, binding = 0) readonly buffer Influences { GpuInfluence influences[]; };
layout(std430, set = 0, binding = 1) readonly buffer BindVertices { GpuBindVertex bind_vertices[]; };
layout(std430, set = 0, binding = 2) readonly buffer StaticIndices { uint static_indices[]; };
layout(std430, set = 0, binding = 3) readonly buffer Attachments { GpuAttachment attachments[]; };
layout(std430, set = 0, binding = 4) readonly buffer Types { GpuSkeletonType types[]; };
layout(std430, set = 0, binding = 5) readonly buffer SlotSetups { GpuSlotSetup slot_setups[]; };
layout(std430, set = 0, binding = 6) readonly buffer Characters { GpuCharacter characters[]; };
layout(std430, set = 0, binding = 7) readonly buffer Bones { float bones[]; };
layout(std430, set = 0, binding = 8) readonly buffer Words { uint words[]; };
layout(std430, set = 0, binding = 25) readonly buffer SetupLists { uint setup_lists[]; };
