// RGBA (the compositor's frame) to whatever a panel stores, described the way the kernel
// describes it: bits per pixel plus an offset/length bitfield per channel.
#pragma once
#include <cstddef>
#include <cstdint>
#include <napi.h>

struct PixelFormat {
  int bpp;
  int off[4];  // red, green, blue, transp
  int len[4];
};

PixelFormat FormatFromJs(const Napi::Object& o);

// Writes `height` rows of `width` pixels; destination rows are `stride` bytes apart.
// `lut` (256 entries, may be null) is applied to r, g and b first: it carries brightness.
bool FormatValid(const PixelFormat& f);

// Source rows are srcStride bytes apart (width*4 for a whole frame, more for a column strip).
void ConvertRgba(const uint8_t* src, int width, int height, uint8_t* dst, size_t stride,
                 const PixelFormat& f, const uint8_t* lut, size_t srcStride = 0);

Napi::Value ConvertJs(const Napi::CallbackInfo& info);
