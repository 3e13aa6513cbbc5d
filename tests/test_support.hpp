// Helpers shared by the tests: where the Spine example exports are, and skipping with a reason when they are not.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace spinegpu::test {

// The example exports folder: $SPINE_EXAMPLES if set, else ../shared/spine-examples beside the source tree.
inline std::filesystem::path examples_dir() {
    if (const char* env = std::getenv("SPINE_EXAMPLES"); env && *env) return env;
    return SPINEGPU_EXAMPLES_DIR;
}

inline bool examples_available() { return std::filesystem::exists(examples_dir() / "spineboy"); }

// One example skeleton: its folder name and the exports it has.
struct ExampleSkeleton {
    std::string name;                // "spineboy"
    std::filesystem::path json;      // the JSON export
    std::filesystem::path binary;    // the .skel export of the same project
    std::filesystem::path atlas;     // straight-alpha atlas
    std::filesystem::path pma_atlas; // premultiplied atlas
};

// Every (JSON, binary) export pair under examples_dir(), e.g. spineboy-pro.json + spineboy-pro.skel.
inline std::vector<ExampleSkeleton> example_skeletons() {
    std::vector<ExampleSkeleton> out;
    namespace fs = std::filesystem;
    if (!examples_available()) return out;
    std::vector<fs::path> folders;
    for (const auto& entry : fs::directory_iterator(examples_dir()))
        if (entry.is_directory()) folders.push_back(entry.path());
    std::sort(folders.begin(), folders.end());
    for (const fs::path& folder : folders) {
        std::string name = folder.filename().string();
        std::vector<fs::path> jsons;
        for (const auto& entry : fs::directory_iterator(folder))
            if (entry.path().extension() == ".json") jsons.push_back(entry.path());
        std::sort(jsons.begin(), jsons.end());
        for (const fs::path& json : jsons) {
            fs::path binary = json;
            binary.replace_extension(".skel");
            out.push_back({name, json, binary, folder / (name + ".atlas"), folder / (name + "-pma.atlas")});
        }
    }
    return out;
}

}  // namespace spinegpu::test

// Skips the current test, with the reason, when the example exports are absent.
#define SPINEGPU_REQUIRE_EXAMPLES()                                                                     \
    do {                                                                                                \
        if (!::spinegpu::test::examples_available())                                                    \
            GTEST_SKIP() << "Spine example exports not found at " << ::spinegpu::test::examples_dir()   \
                         << " (set SPINE_EXAMPLES)";                                                    \
    } while (0)
