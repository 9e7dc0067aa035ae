#include <napi.h>
#include "convert.h"

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
  exports.Set("convert", Napi::Function::New(env, ConvertJs, "convert"));
  return exports;
}

NODE_API_MODULE(mlds_native, Init)
