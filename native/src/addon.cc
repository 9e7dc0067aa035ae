#include <napi.h>
#include "convert.h"

// The node-canvas version canvas-read.cc was built against (binding.gyp reads it from
// node_modules/canvas): its reader calls into canvas.node by symbol, so only that version is safe.
#ifndef MLDS_CANVAS_VERSION
#define MLDS_CANVAS_VERSION ""
#endif

Napi::Function InitFbDevice(Napi::Env env);
Napi::Function InitPacketSocket(Napi::Env env);
Napi::Function InitUdpSocket(Napi::Env env);
Napi::Function InitSdNotify(Napi::Env env);
Napi::Function InitReleaseMemory(Napi::Env env);
Napi::Function InitFrameTimer(Napi::Env env);
Napi::Function InitCanvasReader(Napi::Env env);

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("FbDevice", InitFbDevice(env));
  exports.Set("PacketSocket", InitPacketSocket(env));
  exports.Set("UdpSocket", InitUdpSocket(env));
  exports.Set("sdNotify", InitSdNotify(env));
  exports.Set("releaseMemory", InitReleaseMemory(env));
  exports.Set("FrameTimer", InitFrameTimer(env));
  exports.Set("canvasReader", InitCanvasReader(env));
  exports.Set("canvasVersion", Napi::String::New(env, MLDS_CANVAS_VERSION));
  exports.Set("convert", Napi::Function::New(env, ConvertJs, "convert"));
  return exports;
}

NODE_API_MODULE(mlds_native, Init)
