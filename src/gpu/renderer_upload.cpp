// The renderer's static upload: every skeleton type's bind form into device-local buffers and every atlas page into
// one page array (checked against the device's limits first). See Renderer::Impl::upload_static.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "renderer_impl.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::gpu {

// Uploads `bytes` into a new device-local storage buffer through a staging buffer.
static Result<void> upload_buffer(Renderer::Impl& impl, const void* bytes, VkDeviceSize size, GpuBuffer& out) {
    VkContext& context = *impl.context;
    GpuBuffer staging;
    if (Result<void> r = create_buffer(context, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, staging); !r)
        return r.error();
    if (size > 0) std::memcpy(staging.mapped, bytes, size);
    Result<void> made = create_buffer(context, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                     VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT, false, out);
    if (made && size > 0) {
        made = impl.submit_once([&](VkCommandBuffer commands) {
            VkBufferCopy copy{0, 0, size};
            vkCmdCopyBuffer(commands, staging.buffer, out.buffer, 1, &copy);
        });
    }
    destroy_buffer(context, staging);
    return made;
}

// Records a barrier between transfers on `range` of `image`: the accesses `src` before it, `dst` after it, and the
// layout change `from` -> `to`.
static void transfer_barrier(VkCommandBuffer commands, VkImage image, VkImageSubresourceRange range,
                             VkAccessFlags src, VkAccessFlags dst, VkImageLayout from, VkImageLayout to) {
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = range;
    barrier.srcAccessMask = src;
    barrier.dstAccessMask = dst;
    barrier.oldLayout = from;
    barrier.newLayout = to;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
}

// Makes levels 1 .. levels - 1 of every layer of `image` (in TRANSFER_DST_OPTIMAL, level 0 written) from the
// level above by a linear blit to half size (rounded down), as OpenGL's glGenerateMipmap does, in the page's own
// values, premultiplied or straight: where a side is even each texel is the average of the 2x2 it covers; where it
// is odd the blit samples between texels and passes over part of some. Leaves every level in
// TRANSFER_DST_OPTIMAL. Linear blits of R8G8B8A8_UNORM are required of every Vulkan device.
static void generate_mipmaps(VkCommandBuffer commands, VkImage image, std::uint32_t w, std::uint32_t h,
                             std::uint32_t levels, std::uint32_t layers) {
    const VkAccessFlags read = VK_ACCESS_TRANSFER_READ_BIT, write = VK_ACCESS_TRANSFER_WRITE_BIT;
    for (std::uint32_t level = 1; level < levels; ++level) {
        // The level above becomes the blit's source, then returns to TRANSFER_DST with the rest.
        const VkImageSubresourceRange above{VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 1, 0, layers};
        transfer_barrier(commands, image, above, write, read, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        const auto src_w = static_cast<std::int32_t>(std::max(w >> (level - 1), 1u));
        const auto src_h = static_cast<std::int32_t>(std::max(h >> (level - 1), 1u));
        VkImageBlit blit{};
        blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, layers};
        blit.srcOffsets[1] = {src_w, src_h, 1};
        blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, layers};
        blit.dstOffsets[1] = {std::max(src_w / 2, 1), std::max(src_h / 2, 1), 1};
        vkCmdBlitImage(commands, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
        transfer_barrier(commands, image, above, read, write, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    }
}

// Fills the padding of every layer of `image` (level 0, in TRANSFER_DST_OPTIMAL, the pages written) whose page,
// of size `pages[layer]`, is smaller than the layer (w x h) with the page's last column and row, so that sampling
// past a page's right and bottom edges, and the mipmaps made from it, see the edge texels as clamping to the page
// would (OpenGL's CLAMP_TO_EDGE, Skia's clamp), not transparent padding. Leaves level 0 in TRANSFER_DST_OPTIMAL.
static void extend_page_edges(VkCommandBuffer commands, VkImage image, std::uint32_t w, std::uint32_t h,
                              std::span<const VkExtent2D> pages) {
    std::vector<VkImageBlit> columns, rows;
    for (std::uint32_t layer = 0; layer < pages.size(); ++layer) {
        const auto pw = static_cast<std::int32_t>(pages[layer].width);
        const auto ph = static_cast<std::int32_t>(pages[layer].height);
        VkImageBlit blit{};
        blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1};
        if (pages[layer].width < w) {  // the last column, stretched over the columns to its right
            blit.srcOffsets[0] = {pw - 1, 0, 0};
            blit.srcOffsets[1] = {pw, ph, 1};
            blit.dstOffsets[0] = {pw, 0, 0};
            blit.dstOffsets[1] = {static_cast<std::int32_t>(w), ph, 1};
            columns.push_back(blit);
        }
        if (pages[layer].height < h) {  // then the last row, padding included, over the rows below
            blit.srcOffsets[0] = {0, ph - 1, 0};
            blit.srcOffsets[1] = {static_cast<std::int32_t>(w), ph, 1};
            blit.dstOffsets[0] = {0, ph, 0};
            blit.dstOffsets[1] = {static_cast<std::int32_t>(w), static_cast<std::int32_t>(h), 1};
            rows.push_back(blit);
        }
    }
    if (columns.empty() && rows.empty()) return;
    // Level 0 of every layer; a blit within one subresource needs the GENERAL layout.
    const VkImageSubresourceRange level0{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, static_cast<std::uint32_t>(pages.size())};
    const VkAccessFlags both = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    transfer_barrier(commands, image, level0, VK_ACCESS_TRANSFER_WRITE_BIT, both, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_IMAGE_LAYOUT_GENERAL);
    if (!columns.empty())
        vkCmdBlitImage(commands, image, VK_IMAGE_LAYOUT_GENERAL, image, VK_IMAGE_LAYOUT_GENERAL,
                       static_cast<std::uint32_t>(columns.size()), columns.data(), VK_FILTER_NEAREST);
    transfer_barrier(commands, image, level0, both, both, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
    if (!rows.empty())
        vkCmdBlitImage(commands, image, VK_IMAGE_LAYOUT_GENERAL, image, VK_IMAGE_LAYOUT_GENERAL,
                       static_cast<std::uint32_t>(rows.size()), rows.data(), VK_FILTER_NEAREST);
    transfer_barrier(commands, image, level0, both, both, VK_IMAGE_LAYOUT_GENERAL,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
}

Result<void> Renderer::Impl::upload_static() {
    if (static_error) return *static_error;
    Result<void> made = upload_static_once();
    if (!made) static_error = made.error();
    return made;
}

Result<void> Renderer::Impl::upload_static_once() {
    VkContext& c = *context;
    VkDevice d = c.device;
    // Page array: every page of every type is a layer of one array as large as the largest page.
    // Each layer's filters; mipmaps for all layers when some page's min filter samples them.
    std::uint32_t layer_w = 1, layer_h = 1, layer_count = 0;
    std::vector<std::uint32_t> all_page_filters;
    for (const SkeletonTypeEntry& t : types)
        for (std::size_t i = 0; i < t.pages.size(); ++i) {
            layer_w = std::max(layer_w, t.pages[i].width);
            layer_h = std::max(layer_h, t.pages[i].height);
            all_page_filters.push_back(page_filter_word(t.atlas->pages[i]));
            ++layer_count;
        }
    layer_count = std::max<std::uint32_t>(layer_count, 1);
    all_page_filters.resize(layer_count);
    // Whether some page samples by its level of detail (its material has k_material_scaled_bit).
    const bool scaled = std::any_of(all_page_filters.begin(), all_page_filters.end(), filters_depend_on_scale);
    const bool mipmapped = std::any_of(all_page_filters.begin(), all_page_filters.end(), filters_make_mipmaps);
    if (Result<void> made = make_raster_pipeline(!scaled); !made) return made;
    std::uint32_t levels = 1;
    if (mipmapped)
        while ((std::max(layer_w, layer_h) >> levels) != 0) ++levels;
    if (Result<void> fits = check_page_array(layer_w, layer_h, layer_count, levels); !fits) return fits;

    // Bind form of each type, rebased into the renderer-wide buffers.
    std::vector<GpuInfluence> all_influences;
    std::vector<GpuBindVertex> all_vertices;
    std::vector<std::uint32_t> all_indices;
    std::vector<GpuAttachment> all_attachments;
    std::vector<GpuSkeletonType> all_types;
    std::vector<GpuSlotSetup> all_setups;
    std::vector<std::uint32_t> all_setup_lists;
    std::vector<std::uint32_t> all_owners, all_collapse;
    std::uint32_t next_layer = 0;
    for (SkeletonTypeEntry& t : types) {
        std::vector<PagePlacement> placement;
        for (const Image& page : t.pages)
            placement.push_back({next_layer++, static_cast<float>(page.width) / static_cast<float>(layer_w),
                                 static_cast<float>(page.height) / static_cast<float>(layer_h)});
        Result<StaticSkeleton> bind = build_static_skeleton(*t.data, *t.atlas, *t.binding, placement, t.name);
        if (!bind) return bind.error();
        t.bind = std::move(*bind);
        t.max_words = max_words_per_character(t.bind, *t.data);
        max_slots = std::max(max_slots, static_cast<std::uint32_t>(t.data->slots.size()));
        bone_stride = std::max(bone_stride, static_cast<std::uint32_t>(t.bind.drawn_bones.size()));
        word_stride = std::max(word_stride, t.max_words);
        const auto influence_base = static_cast<std::uint32_t>(all_influences.size());
        const auto vertex_base = static_cast<std::uint32_t>(all_vertices.size());
        const auto index_base = static_cast<std::uint32_t>(all_indices.size());
        all_types.push_back({static_cast<std::uint32_t>(all_attachments.size()),
                             static_cast<std::uint32_t>(t.data->slots.size()),
                             static_cast<std::uint32_t>(all_setups.size()), t.bind.flags,
                             static_cast<std::uint32_t>(all_setup_lists.size())});
        all_setup_lists.insert(all_setup_lists.end(), t.bind.setup_lists.begin(), t.bind.setup_lists.end());
        all_influences.insert(all_influences.end(), t.bind.influences.begin(), t.bind.influences.end());
        for (GpuBindVertex v : t.bind.vertices) {
            v.influence_first += influence_base;
            all_vertices.push_back(v);
        }
        all_indices.insert(all_indices.end(), t.bind.indices.begin(), t.bind.indices.end());
        const auto attachment_base = static_cast<std::uint32_t>(all_attachments.size());
        all_owners.resize(all_vertices.size());
        for (GpuAttachment a : t.bind.attachments) {
            a.vertex_first += vertex_base;
            a.index_first += index_base;
            a.influence_first += influence_base;
            for (std::uint32_t v = 0; v < a.vertex_count; ++v)
                all_owners[a.vertex_first + v] = static_cast<std::uint32_t>(all_attachments.size());
            all_attachments.push_back(a);
        }
        // The vertex-shader path draws every drawable attachment, slot by slot in setup order.
        t.collapse_first = static_cast<std::uint32_t>(all_collapse.size());
        t.collapse_vertices = 0;
        for (std::uint32_t slot = 0; slot < t.data->slots.size(); ++slot)
            for (std::uint32_t id = 0; id < t.bind.attachments.size(); ++id) {
                const GpuAttachment& a = all_attachments[attachment_base + id];
                if ((a.slot_and_end & 0xFFFF) != slot || a.index_count == 0) continue;
                for (std::uint32_t i = 0; i < a.index_count; ++i)
                    all_collapse.push_back(a.vertex_first + all_indices[a.index_first + i]);
                t.collapse_vertices += a.vertex_count;
            }
        t.collapse_count = static_cast<std::uint32_t>(all_collapse.size()) - t.collapse_first;
        all_setups.insert(all_setups.end(), t.bind.slot_setups.begin(), t.bind.slot_setups.end());
    }
    // All but the collapse indices (an index buffer) are read through one storage buffer each.
    struct Upload { const void* data; std::size_t bytes; GpuBuffer* out; const char* what; };
    const Upload uploads[] = {
        Upload{all_influences.data(), all_influences.size() * sizeof(GpuInfluence), &influences, "influences"},
        Upload{all_vertices.data(), all_vertices.size() * sizeof(GpuBindVertex), &bind_vertices, "vertices"},
        Upload{all_indices.data(), all_indices.size() * sizeof(std::uint32_t), &static_indices, "indices"},
        Upload{all_attachments.data(), all_attachments.size() * sizeof(GpuAttachment), &attachments, "attachments"},
        Upload{all_types.data(), all_types.size() * sizeof(GpuSkeletonType), &type_table, "types"},
        Upload{all_setups.data(), all_setups.size() * sizeof(GpuSlotSetup), &slot_setups, "slots"},
        Upload{all_setup_lists.data(), all_setup_lists.size() * sizeof(std::uint32_t), &setup_lists,
               "setup draw lists"},
        Upload{all_owners.data(), all_owners.size() * sizeof(std::uint32_t), &vertex_owners, "vertex owners"},
        Upload{all_page_filters.data(), all_page_filters.size() * sizeof(std::uint32_t), &page_filters, "pages"},
        Upload{all_collapse.data(), all_collapse.size() * sizeof(std::uint32_t), &collapse_indices, nullptr}};
    for (const Upload& u : uploads)
        if (u.what != nullptr && u.bytes > storage_range)
            return make_error("renderer", "skeleton types",
                              std::string("their ") + u.what + " take " + std::to_string(u.bytes) +
                                  " bytes, more than one storage buffer of this device holds (" +
                                  std::to_string(storage_range) + "); use fewer or smaller skeleton types");
    for (const Upload& u : uploads)
        if (Result<void> r = upload_buffer(*this, u.data, u.bytes, *u.out); !r) return r.error();

    // The page array, UNORM: texels are filtered in sRGB-encoded values as the official renderers filter them
    // (shading.glsl says why); and viewed as sRGB too, for draws in linear light, which filter straight pages'
    // texels decoded (the two formats listed, so that a driver may keep its compression of the image).
    const std::array<VkFormat, 2> page_formats{VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB};
    VkImageFormatListCreateInfo format_list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO};
    format_list.viewFormatCount = static_cast<std::uint32_t>(page_formats.size());
    format_list.pViewFormats = page_formats.data();
    VkImageCreateInfo image{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    image.pNext = &format_list;
    image.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    image.imageType = VK_IMAGE_TYPE_2D;
    image.format = VK_FORMAT_R8G8B8A8_UNORM;
    image.extent = {layer_w, layer_h, 1};
    image.mipLevels = levels;
    image.arrayLayers = layer_count;
    image.samples = VK_SAMPLE_COUNT_1_BIT;
    image.tiling = VK_IMAGE_TILING_OPTIMAL;
    image.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    image.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (Result<void> made = create_image(c, image, pages, pages_memory); !made) {
        Error error = make_error("renderer", "atlas pages",
                                 "the page array (" + std::to_string(layer_count) + " layers of " +
                                     std::to_string(layer_w) + "x" + std::to_string(layer_h) +
                                     ") could not be made: " + made.error().message());
        error.vk_result = made.error().vk_result;
        return error;
    }

    VkDeviceSize staging_size = 0;
    for (const SkeletonTypeEntry& t : types)
        for (const Image& page : t.pages) staging_size += page.rgba.size();
    GpuBuffer staging;
    if (Result<void> r = create_buffer(c, staging_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, staging); !r)
        return r.error();
    std::vector<VkBufferImageCopy> copies;
    std::vector<VkExtent2D> page_sizes;  // per layer
    VkDeviceSize offset = 0;
    std::uint32_t layer = 0;
    for (SkeletonTypeEntry& t : types)
        for (Image& page : t.pages) {
            std::memcpy(static_cast<std::uint8_t*>(staging.mapped) + offset, page.rgba.data(), page.rgba.size());
            VkBufferImageCopy copy{};
            copy.bufferOffset = offset;
            copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer++, 1};
            copy.imageExtent = {page.width, page.height, 1};
            copies.push_back(copy);
            page_sizes.push_back({page.width, page.height});
            offset += page.rgba.size();
            page.release_pixels();
        }
    Result<void> uploaded = submit_once([&](VkCommandBuffer commands) {
        VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        barrier.srcAccessMask = 0;
        barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        barrier.image = pages;
        barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, layer_count};
        vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                             nullptr, 0, nullptr, 1, &barrier);
        // Transparent layers where there are no pages (the padding of pages smaller than a layer is filled below).
        VkClearColorValue clear{};
        vkCmdClearColorImage(commands, pages, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1,
                             &barrier.subresourceRange);
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.oldLayout = barrier.newLayout;
        vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                             nullptr, 0, nullptr, 1, &barrier);
        if (!copies.empty())
            vkCmdCopyBufferToImage(commands, staging.buffer, pages, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                   static_cast<std::uint32_t>(copies.size()), copies.data());
        extend_page_edges(commands, pages, layer_w, layer_h, page_sizes);
        generate_mipmaps(commands, pages, layer_w, layer_h, levels, layer_count);
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
                             nullptr, 0, nullptr, 1, &barrier);
    });
    destroy_buffer(c, staging);
    if (!uploaded) return uploaded.error();
    // The samplers, linear and nearest within a level. With mipmaps they mip linearly, and the shaders pass whole
    // levels of detail where a page's filter wants one level; without, they read level 0 only.
    VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_LINEAR;
    sampler_info.mipmapMode = levels > 1 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW =
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sampler_info.maxLod = levels > 1 ? VK_LOD_CLAMP_NONE : 0.0f;
    if (VkResult r = vkCreateSampler(d, &sampler_info, nullptr, &sampler); r != VK_SUCCESS)
        return vk_error("vkCreateSampler", r);
    sampler_info.magFilter = sampler_info.minFilter = VK_FILTER_NEAREST;
    if (VkResult r = vkCreateSampler(d, &sampler_info, nullptr, &nearest_sampler); r != VK_SUCCESS)
        return vk_error("vkCreateSampler", r);
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = pages;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    view.format = VK_FORMAT_R8G8B8A8_UNORM;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, layer_count};
    if (VkResult r = vkCreateImageView(d, &view, nullptr, &pages_view); r != VK_SUCCESS)
        return vk_error("vkCreateImageView", r);
    view.format = VK_FORMAT_R8G8B8A8_SRGB;
    if (VkResult r = vkCreateImageView(d, &view, nullptr, &pages_srgb_view); r != VK_SUCCESS)
        return vk_error("vkCreateImageView", r);
    finalized = true;
    return {};
}


Result<void> Renderer::Impl::check_page_array(std::uint32_t w, std::uint32_t h, std::uint32_t layers,
                                              std::uint32_t levels) const {
    const VkContext& c = *context;
    VkImageFormatProperties limits{};
    const VkResult queried = vkGetPhysicalDeviceImageFormatProperties(
        c.physical, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT, &limits);
    VkDeviceSize heap = 0, local_heap = 0;  // the largest device-local heap, else the largest heap
    for (std::uint32_t i = 0; i < c.memory.memoryHeapCount; ++i) {
        heap = std::max(heap, c.memory.memoryHeaps[i].size);
        if (c.memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            local_heap = std::max(local_heap, c.memory.memoryHeaps[i].size);
    }
    if (local_heap != 0) heap = local_heap;
    std::uint64_t bytes = 0;
    for (std::uint32_t level = 0; level < levels; ++level)
        bytes += std::uint64_t{std::max(w >> level, 1u)} * std::max(h >> level, 1u) * 4 * layers;
    std::string why;
    if (queried != VK_SUCCESS) {
        why = "the device cannot sample an RGBA8 image array";
    } else if (layers > std::min<std::uint32_t>(limits.maxArrayLayers, k_material_layer_mask + 1)) {
        why = std::to_string(layers) + " pages; at most " +
              std::to_string(std::min<std::uint32_t>(limits.maxArrayLayers, k_material_layer_mask + 1)) + " fit";
    } else if (w > limits.maxExtent.width || h > limits.maxExtent.height) {
        why = "the widest is " + std::to_string(w) + " and the tallest " + std::to_string(h) + " pixels, more than " +
              "this device's largest image, " + std::to_string(limits.maxExtent.width) + "x" +
              std::to_string(limits.maxExtent.height);
    } else if (levels > limits.maxMipLevels) {
        why = "the device makes no mipmaps of " + std::to_string(levels) + " levels for these pages";
    } else if (bytes > limits.maxResourceSize || bytes > heap) {
        why = "every page is a layer as wide as the widest and as tall as the tallest, " + std::to_string(w) + "x" +
              std::to_string(h) + (levels > 1 ? " with mipmaps" : "") +
              ": " + std::to_string(bytes >> 20) + " MiB in all, more than this device takes in one image (" +
              std::to_string(std::min<std::uint64_t>(limits.maxResourceSize, heap) >> 20) +
              " MiB); use fewer or more even pages";
    } else {
        return {};
    }
    std::string pages;
    for (const SkeletonTypeEntry& t : types) {
        std::uint32_t largest_w = 0, largest_h = 0;
        for (const Image& page : t.pages)
            if (std::uint64_t{page.width} * page.height > std::uint64_t{largest_w} * largest_h) {
                largest_w = page.width;
                largest_h = page.height;
            }
        pages += (pages.empty() ? "" : "; ") + t.name + ": " + std::to_string(t.pages.size()) + " (largest " +
                 std::to_string(largest_w) + "x" + std::to_string(largest_h) + ")";
    }
    return make_error("renderer", "atlas pages", why + " [pages per skeleton type: " + pages + "]");
}

}  // namespace spinegpu::gpu
