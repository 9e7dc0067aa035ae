// A brightness table applied in the conversion to 32-bit framebuffer pixels with SIMD (brightness.cc).
#pragma once
#include <cstddef>
#include <cstdint>

// Converts RGBA rows to 32-bit pixels with byte byteOf[c] of each pixel holding lut[channel c]
// and tmask ORed in. Returns false, writing nothing, when this CPU or this table has no fast
// path; the caller's loop then does the same work.
bool ConvertRows32WithTable(const uint8_t* src, int width, int height, uint8_t* dst, size_t stride, size_t srcStride,
                            const int byteOf[3], uint32_t tmask, const uint8_t* lut);
