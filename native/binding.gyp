{
  "targets": [
    {
      "target_name": "mlds_native",
      "sources": ["src/addon.cc", "src/errors.cc", "src/convert.cc", "src/fbdev.cc", "src/packet.cc", "src/batch.cc", "src/udp.cc", "src/notify.cc", "src/brightness.cc", "src/memory.cc", "src/timer.cc", "src/canvas-read.cc", "src/loaded-objects.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "_GNU_SOURCE"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-O2"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-O3", "-Wall", "-Wextra"]
    }
  ]
}
