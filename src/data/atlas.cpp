// The libGDX/Spine text atlas reader. The grammar and the UV arithmetic follow the official TextureAtlas; unlike it,
// malformed values of known keys are errors (with the line) instead of NaNs.
#include "spinegpu/data/atlas.hpp"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>

#include "spinegpu/core/file.hpp"

namespace spinegpu {
namespace {

bool is_blank_char(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank_char(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank_char(s.back())) s.remove_suffix(1);
    return s;
}

// Splits text into lines at CRLF, CR or LF. A trailing line end does not start another line.
std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c != '\n' && c != '\r') continue;
        lines.push_back(text.substr(start, i - start));
        if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        start = i + 1;
    }
    if (start < text.size()) lines.push_back(text.substr(start));
    return lines;
}

// One `key: v1, v2, ...` line.
struct Entry {
    std::string_view key;
    std::vector<std::string_view> values;
};

// Reads `line` as an entry; false when it has no colon (then it names a page or a region).
bool read_entry(std::string_view line, Entry& entry) {
    line = trim(line);
    std::size_t colon = line.find(':');
    if (line.empty() || colon == std::string_view::npos) return false;
    entry.key = trim(line.substr(0, colon));
    entry.values.clear();
    std::string_view rest = line.substr(colon + 1);
    for (;;) {
        std::size_t comma = rest.find(',');
        entry.values.push_back(trim(rest.substr(0, comma)));
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    return true;
}

bool parse_int(std::string_view s, std::int32_t& out) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return false;
    if (value < -k_atlas_max_coordinate || value > k_atlas_max_coordinate) return false;
    out = static_cast<std::int32_t>(value);
    return true;
}

const char* const k_filter_names[] = {"Nearest",             "Linear",              "MipMap",
                                      "MipMapNearestNearest", "MipMapLinearNearest", "MipMapNearestLinear",
                                      "MipMapLinearLinear"};

bool parse_filter(std::string_view s, TextureFilter& out) {
    for (std::size_t i = 0; i < std::size(k_filter_names); ++i) {
        if (s == k_filter_names[i]) {
            out = static_cast<TextureFilter>(i);
            return true;
        }
    }
    return false;
}

// Keys that only regions have: seeing one among a page's keys means a region name line is missing (or the file
// starts with a region).
bool is_region_only_key(std::string_view key) {
    return key == "bounds" || key == "offsets" || key == "rotate" || key == "xy" || key == "orig" ||
           key == "offset" || key == "index" || key == "split" || key == "pad";
}

// Computes u, v, u2, v2 as the official loader does: the packed extent is swapped only for `rotate: 90`.
void compute_uvs(AtlasRegion& region, const AtlasPage& page) {
    if (page.width == 0 || page.height == 0) {
        region.u = region.v = region.u2 = region.v2 = 0;
        return;
    }
    double w = page.width, h = page.height;
    bool swapped = region.degrees == 90;
    region.u = static_cast<float>(region.x / w);
    region.v = static_cast<float>(region.y / h);
    region.u2 = static_cast<float>((region.x + static_cast<double>(swapped ? region.height : region.width)) / w);
    region.v2 = static_cast<float>((region.y + static_cast<double>(swapped ? region.width : region.height)) / h);
}

// Whether the region's packed rectangle lies in a page of the given size. Rotations other than 0 and 90 are not
// defined precisely by the format, so either orientation is accepted for them.
bool region_fits(const AtlasRegion& r, std::uint32_t page_width, std::uint32_t page_height) {
    if (page_width == 0 || page_height == 0) return true;
    auto fits = [&](std::int64_t w, std::int64_t h) {
        return std::int64_t{r.x} + w <= std::int64_t{page_width} && std::int64_t{r.y} + h <= std::int64_t{page_height};
    };
    if (r.degrees == 0) return fits(r.width, r.height);
    if (r.degrees == 90) return fits(r.height, r.width);
    return fits(r.width, r.height) || fits(r.height, r.width);
}

std::string quoted(std::string_view s) {
    std::string out = "\"";
    // Keep messages one line and printable whatever the input holds.
    for (char c : s.substr(0, 200)) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    if (s.size() > 200) out += "...";
    out += '"';
    return out;
}

// Whether an atlas's first line is how a JSON object starts: "{" alone, or "{" then a quoted key.
bool starts_json_object(std::string_view first_line) {
    if (first_line.empty() || first_line.front() != '{') return false;
    const std::string_view rest = trim(first_line.substr(1));
    return rest.empty() || rest.front() == '"';
}

class Parser {
public:
    Parser(std::string_view text, const std::string& file) : file_(file) {
        if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
        lines_ = split_lines(text);
        atlas_.file = file;
    }

    Result<Atlas> parse() {
        // A text atlas holds no control bytes but tabs and line ends: anything else (an image, a .skel given as the
        // atlas) is refused here rather than read as page and region names.
        for (std::size_t i = 0; i < lines_.size(); ++i)
            for (const char c : lines_[i]) {
                const auto byte = static_cast<unsigned char>(c);
                if ((byte < 0x20 && c != '\t' && c != '\r') || byte == 0x7f)
                    return error_at(static_cast<std::uint32_t>(i + 1), "not a text atlas (it holds control bytes)");
            }
        // Blank lines, then header entries, before the first page are skipped, as the official reader does.
        while (at_line() && trim(line()).empty()) ++next_;
        // A JSON object (a skeleton export given as the atlas) would otherwise read as a page named "{" and a region
        // per line, and fail later as regions not found. (A page image may be named "{a}.png": only "{" alone or
        // followed by a key is taken for JSON.)
        if (at_line() && starts_json_object(trim(line())))
            return error_at(static_cast<std::uint32_t>(next_ + 1),
                            "not a text atlas: it starts as a JSON document does (a skeleton export?)");
        Entry entry;
        while (at_line() && read_entry(line(), entry)) ++next_;

        bool in_page = false;
        while (at_line()) {
            std::string_view text = trim(line());
            if (text.empty()) {
                in_page = false;
                ++next_;
            } else if (!in_page) {
                if (auto error = read_page(text)) return *error;
                in_page = true;
            } else {
                if (auto error = read_region(text)) return *error;
            }
        }
        return std::move(atlas_);
    }

private:
    bool at_line() const { return next_ < lines_.size(); }
    std::string_view line() const { return lines_[next_]; }
    std::uint32_t line_number() const { return static_cast<std::uint32_t>(next_ + 1); }

    Error error_at(std::uint32_t line, std::string what) const {
        return make_error(file_, "line " + std::to_string(line), std::move(what));
    }

    Error expected(std::uint32_t line, std::size_t count, const char* what, std::string_view key) const {
        return error_at(line, "expected " + std::to_string(count) + " " + what + " after " +
                                  quoted(std::string(key) + ":"));
    }

    // Reads `count` integers of `entry`, each in [min_value, k_atlas_max_coordinate].
    std::optional<Error> ints(const Entry& entry, std::uint32_t line, std::size_t count, std::int32_t* out,
                              std::int32_t min_value) const {
        const char* what = count == 1 ? "integer" : "integers";
        if (entry.values.size() != count) return expected(line, count, what, entry.key);
        for (std::size_t i = 0; i < count; ++i)
            if (!parse_int(entry.values[i], out[i])) return expected(line, count, what, entry.key);
        const char* bounded = min_value == 0 ? (count == 1 ? "non-negative integer" : "non-negative integers")
                                             : (count == 1 ? "integer >= -1" : "integers >= -1");
        for (std::size_t i = 0; i < count; ++i)
            if (out[i] < min_value) return expected(line, count, bounded, entry.key);
        return std::nullopt;
    }

    std::optional<Error> read_page(std::string_view name) {
        AtlasPage page;
        page.name = std::string(name);
        ++next_;
        Entry entry;
        while (at_line() && read_entry(line(), entry)) {
            std::uint32_t at = line_number();
            ++next_;
            const std::string_view key = entry.key;
            if (key == "size") {
                std::int32_t size[2];
                if (auto e = ints(entry, at, 2, size, 0)) return e;
                page.width = static_cast<std::uint32_t>(size[0]);
                page.height = static_cast<std::uint32_t>(size[1]);
            } else if (key == "format") {
                if (entry.values.size() != 1 || entry.values[0].empty()) return expected(at, 1, "name", key);
                page.format = std::string(entry.values[0]);
            } else if (key == "filter") {
                if (entry.values.size() != 2 || !parse_filter(entry.values[0], page.min_filter) ||
                    !parse_filter(entry.values[1], page.mag_filter))
                    return error_at(at, "bad filter value: expected 2 of Nearest, Linear, MipMap, "
                                        "MipMapNearestNearest, MipMapLinearNearest, MipMapNearestLinear, "
                                        "MipMapLinearLinear");
            } else if (key == "repeat") {
                std::string_view v = entry.values.size() == 1 ? entry.values[0] : std::string_view("?");
                if (v != "x" && v != "y" && v != "xy" && v != "none")
                    return error_at(at, "bad repeat value: expected x, y, xy or none");
                page.u_wrap = v.find('x') != std::string_view::npos ? TextureWrap::repeat : TextureWrap::clamp_to_edge;
                page.v_wrap = v.find('y') != std::string_view::npos ? TextureWrap::repeat : TextureWrap::clamp_to_edge;
            } else if (key == "pma") {
                std::string_view v = entry.values.size() == 1 ? entry.values[0] : std::string_view("?");
                if (v != "true" && v != "false") return error_at(at, "bad pma value: expected true or false");
                page.pma = v == "true";
            } else if (key == "scale") {
                float scale = 0;
                std::string_view v = entry.values.size() == 1 ? entry.values[0] : std::string_view();
                auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), scale);
                if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(scale) ||
                    scale <= 0)
                    return error_at(at, "bad scale value: expected a positive number");
                page.scale = scale;
            } else if (is_region_only_key(key)) {
                return error_at(at, quoted(std::string(key) + ":") + " belongs to a region, but " + quoted(name) +
                                        " starts a page: region before any page (a blank line ends a page)");
            }
            // Other page keys are ignored.
        }
        atlas_.pages.push_back(std::move(page));
        return std::nullopt;
    }

    std::optional<Error> read_region(std::string_view name) {
        AtlasRegion region;
        region.page = static_cast<Index>(atlas_.pages.size() - 1);
        region.line = line_number();
        ++next_;
        Entry entry;
        while (at_line() && read_entry(line(), entry)) {
            std::uint32_t at = line_number();
            ++next_;
            const std::string_view key = entry.key;
            std::int32_t v[4];
            if (key == "bounds") {
                if (auto e = ints(entry, at, 4, v, 0)) return e;
                region.x = v[0], region.y = v[1], region.width = v[2], region.height = v[3];
            } else if (key == "offsets") {
                if (auto e = ints(entry, at, 4, v, -k_atlas_max_coordinate)) return e;
                if (v[2] < 0 || v[3] < 0) return error_at(at, "negative original size after \"offsets:\"");
                region.offset_x = static_cast<float>(v[0]), region.offset_y = static_cast<float>(v[1]);
                region.original_width = v[2], region.original_height = v[3];
            } else if (key == "xy") {
                if (auto e = ints(entry, at, 2, v, 0)) return e;
                region.x = v[0], region.y = v[1];
            } else if (key == "size") {
                if (auto e = ints(entry, at, 2, v, 0)) return e;
                region.width = v[0], region.height = v[1];
            } else if (key == "orig") {
                if (auto e = ints(entry, at, 2, v, 0)) return e;
                region.original_width = v[0], region.original_height = v[1];
            } else if (key == "offset") {
                if (auto e = ints(entry, at, 2, v, -k_atlas_max_coordinate)) return e;
                region.offset_x = static_cast<float>(v[0]), region.offset_y = static_cast<float>(v[1]);
            } else if (key == "rotate") {
                std::string_view value = entry.values.size() == 1 ? entry.values[0] : std::string_view("?");
                if (value == "true") {
                    region.degrees = 90;
                } else if (value == "false") {
                    region.degrees = 0;
                } else if (!parse_int(value, region.degrees)) {
                    return error_at(at, "bad rotate value " + quoted(value) + ": expected true, false or degrees");
                }
            } else if (key == "index") {
                if (auto e = ints(entry, at, 1, v, -1)) return e;
                region.index = v[0];
            } else if (key == "split" || key == "pad") {
                if (auto e = ints(entry, at, 4, v, -k_atlas_max_coordinate)) return e;
                (key == "split" ? region.splits : region.pads).assign(v, v + 4);
            } else {
                // Unknown keys are kept as integers (what is not one reads as 0), as the official reader keeps them.
                std::vector<std::int32_t> values;
                values.reserve(entry.values.size());
                for (std::string_view s : entry.values) {
                    std::int32_t x = 0;
                    values.push_back(parse_int(s, x) ? x : 0);
                }
                region.extra.emplace_back(std::string(key), std::move(values));
            }
        }
        if (region.original_width == 0 && region.original_height == 0) {
            region.original_width = region.width;
            region.original_height = region.height;
        }
        const AtlasPage& page = atlas_.pages[static_cast<std::size_t>(region.page)];
        if (!region_fits(region, page.width, page.height))
            return error_at(region.line, "region " + quoted(name) + " lies outside its page " + quoted(page.name) +
                                             " (" + std::to_string(page.width) + "x" +
                                             std::to_string(page.height) + ")");
        compute_uvs(region, page);

        auto index = static_cast<Index>(atlas_.regions.size());
        if (atlas_.region_names.add(name) != k_none) atlas_.first_region.push_back(index);
        atlas_.all_region_names.emplace_back(name);
        atlas_.regions.push_back(std::move(region));
        return std::nullopt;
    }

    const std::string& file_;
    std::vector<std::string_view> lines_;
    std::size_t next_ = 0;
    Atlas atlas_;
};

}  // namespace

Index Atlas::find_region(std::string_view name, std::int32_t index) const {
    Index found = region_names.find(name);
    if (found == k_none) return k_none;
    Index first = first_region[static_cast<std::size_t>(found)];
    if (index < 0) return first;
    for (std::size_t i = static_cast<std::size_t>(first); i < regions.size(); ++i)
        if (regions[i].index == index && all_region_names[i] == name) return static_cast<Index>(i);
    return k_none;
}

Result<Atlas> parse_atlas(std::string_view text, const std::string& file) { return Parser(text, file).parse(); }

Result<Atlas> load_atlas_file(const std::string& path) {
    Result<std::string> text = read_file_text(path);
    if (!text) return text.error();
    return parse_atlas(*text, path);
}

std::string atlas_page_path(const Atlas& atlas, Index page) {
    assert(page >= 0 && static_cast<std::size_t>(page) < atlas.pages.size());
    const std::string& name = atlas.pages[static_cast<std::size_t>(page)].name;
    std::size_t slash = atlas.file.find_last_of('/');
    if (slash == std::string::npos) return name;
    return atlas.file.substr(0, slash + 1) + name;
}

Result<void> set_atlas_page_size(Atlas& atlas, Index page, std::uint32_t width, std::uint32_t height) {
    assert(page >= 0 && static_cast<std::size_t>(page) < atlas.pages.size());
    AtlasPage& p = atlas.pages[static_cast<std::size_t>(page)];
    for (std::size_t i = 0; i < atlas.regions.size(); ++i) {
        const AtlasRegion& r = atlas.regions[i];
        if (r.page == page && !region_fits(r, width, height))
            return make_error(atlas.file, "line " + std::to_string(r.line),
                              "region " + quoted(atlas.all_region_names[i]) + " lies outside its page " +
                                  quoted(p.name) + " (" + std::to_string(width) + "x" + std::to_string(height) + ")");
    }
    p.width = width;
    p.height = height;
    for (AtlasRegion& r : atlas.regions)
        if (r.page == page) compute_uvs(r, p);
    return {};
}

}  // namespace spinegpu
