// A bounds-checked reader for Spine's binary format: big-endian 32-bit integers and floats, varints (7 bits per
// byte, at most 5 bytes), length-prefixed UTF-8 strings. Every read checks the bytes left; the first failure is
// kept (its byte offset and a sentence) and every later read fails too, so a parser can bail out with one test.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace spinegpu::detail {

class BinaryReader {
public:
    explicit BinaryReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

    std::size_t offset() const { return pos_; }
    std::size_t remaining() const { return bytes_.size() - pos_; }
    bool failed() const { return failed_; }
    std::size_t error_offset() const { return error_offset_; }
    const std::string& error_what() const { return error_what_; }

    // What is being read, for end-of-file messages: "bone 3", "animation \"walk\"".
    void set_section(std::string section) { section_ = std::move(section); }
    const std::string& section() const { return section_; }

    // Records an error at byte `at` (the first one wins) and returns false.
    bool fail(std::size_t at, std::string what) {
        if (!failed_) {
            failed_ = true;
            error_offset_ = at;
            error_what_ = std::move(what);
        }
        pos_ = bytes_.size();
        return false;
    }

    // Records an error at byte `at` prefixed with the current section: "bone 3: parent index 9 out of range".
    bool fail_here(std::size_t at, std::string_view what) {
        std::string text = section_;
        if (!text.empty()) text += ": ";
        text += what;
        return fail(at, std::move(text));
    }

    bool byte(std::uint8_t& out) {
        if (!need(1)) return false;
        out = bytes_[pos_++];
        return true;
    }

    bool boolean(bool& out) {
        std::uint8_t b = 0;
        if (!byte(b)) return false;
        out = b != 0;
        return true;
    }

    bool u32(std::uint32_t& out) {
        if (!need(4)) return false;
        out = (std::uint32_t{bytes_[pos_]} << 24) | (std::uint32_t{bytes_[pos_ + 1]} << 16) |
              (std::uint32_t{bytes_[pos_ + 2]} << 8) | std::uint32_t{bytes_[pos_ + 3]};
        pos_ += 4;
        return true;
    }

    bool i32(std::int32_t& out) {
        std::uint32_t u = 0;
        if (!u32(u)) return false;
        out = static_cast<std::int32_t>(u);
        return true;
    }

    // A float; infinities and NaNs (which no export writes) are errors.
    bool f32(float& out) {
        std::uint32_t u = 0;
        if (!u32(u)) return false;
        out = std::bit_cast<float>(u);
        if (!std::isfinite(out)) return fail_here(pos_ - 4, "not a finite number");
        return true;
    }

    // A varint as Spine writes it with optimizePositive: 7 bits per byte, low bits first, at most 5 bytes (the last
    // holding the top 4 bits). Encodings that do not fit in 32 bits are rejected.
    bool varint(std::uint32_t& out) {
        std::size_t start = pos_;
        std::uint32_t result = 0;
        for (int i = 0; i < 5; ++i) {
            std::uint8_t b = 0;
            if (!byte(b)) return false;
            if (i == 4 && b > 0x0f) return fail_here(start, "malformed varint (more than 32 bits)");
            result |= std::uint32_t{b & 0x7fu} << (7 * i);
            if ((b & 0x80) == 0) break;
        }
        out = result;
        return true;
    }

    // A zigzag-encoded signed varint (Spine's readInt(false)).
    bool signed_varint(std::int32_t& out) {
        std::uint32_t u = 0;
        if (!varint(u)) return false;
        out = static_cast<std::int32_t>((u >> 1) ^ (0u - (u & 1)));
        return true;
    }

    // A count that must be backed by at least `min_bytes_each` bytes per item in what is left of the file, so that
    // a corrupt count can never make the caller allocate more than a small multiple of the file's size.
    bool count(std::uint32_t& out, std::size_t min_bytes_each, std::string_view what) {
        std::size_t start = pos_;
        if (!varint(out)) return false;
        if (min_bytes_each > 0 && out > remaining() / min_bytes_each)
            return fail_here(start, std::string(what) + " count " + std::to_string(out) + " is larger than the " +
                                        std::to_string(remaining()) + " bytes left can hold");
        return true;
    }

    // A varint index that must be below `limit`. The message names `what` and the limit's meaning:
    // "parent index 9 out of range (3 bones so far)".
    bool index(std::int32_t& out, std::size_t limit, std::string_view what, std::string_view limit_noun) {
        std::size_t start = pos_;
        std::uint32_t v = 0;
        if (!varint(v)) return false;
        if (v >= limit)
            return fail_here(start, std::string(what) + " index " + std::to_string(v) + " out of range (" +
                                        std::to_string(limit) + " " + std::string(limit_noun) + ")");
        out = static_cast<std::int32_t>(v);
        return true;
    }

    // A string: varint byte count + 1 (0 means null, 1 the empty string), then UTF-8 bytes. `present` is false for
    // null.
    bool string(std::string& out, bool& present) {
        std::size_t start = pos_;
        std::uint32_t n = 0;
        if (!varint(n)) return false;
        present = n != 0;
        out.clear();
        if (n <= 1) return true;
        std::size_t length = n - 1;
        if (length > remaining())
            return fail_here(start, "string of " + std::to_string(length) + " bytes runs past the end of the file (" +
                                        std::to_string(remaining()) + " bytes left)");
        out.assign(reinterpret_cast<const char*>(bytes_.data() + pos_), length);
        pos_ += length;
        return true;
    }

private:
    bool need(std::size_t n) {
        if (failed_) return false;
        if (n > remaining()) {
            std::string what = "unexpected end of file";
            if (!section_.empty()) what += " while reading " + section_;
            return fail(pos_, std::move(what));
        }
        return true;
    }

    std::span<const std::uint8_t> bytes_;
    std::size_t pos_ = 0;
    bool failed_ = false;
    std::size_t error_offset_ = 0;
    std::string error_what_;
    std::string section_;
};

}  // namespace spinegpu::detail
