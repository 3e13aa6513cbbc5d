// The renderer's page array against the device's limits: see Renderer::Impl::check_page_array.
#include <algorithm>
#include <string>

#include "renderer_impl.hpp"

namespace spinegpu::gpu {

Result<void> Renderer::Impl::check_page_array(std::uint32_t w, std::uint32_t h, std::uint32_t layers) const {
    const VkContext& c = *context;
    VkImageFormatProperties limits{};
    const VkResult queried = vkGetPhysicalDeviceImageFormatProperties(
        c.physical, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &limits);
    VkDeviceSize heap = 0, local_heap = 0;  // the largest device-local heap, else the largest heap
    for (std::uint32_t i = 0; i < c.memory.memoryHeapCount; ++i) {
        heap = std::max(heap, c.memory.memoryHeaps[i].size);
        if (c.memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            local_heap = std::max(local_heap, c.memory.memoryHeaps[i].size);
    }
    if (local_heap != 0) heap = local_heap;
    const std::uint64_t bytes = std::uint64_t{w} * h * 4 * layers;
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
    } else if (bytes > limits.maxResourceSize || bytes > heap) {
        why = "every page is a layer as wide as the widest and as tall as the tallest, " + std::to_string(w) + "x" +
              std::to_string(h) +
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
