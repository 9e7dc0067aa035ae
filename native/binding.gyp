{
  "targets": [
    {
      "target_name": "mlds_native",
      "sources": ["src/addon.cc", "src/errors.cc", "src/convert.cc", "src/fbdev.cc", "src/packet.cc", "src/batch.cc", "src/udp.cc", "src/notify.cc", "src/brightness.cc", "src/timer.cc", "src/memory.cc", "src/canvas-read.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "_GNU_SOURCE", "MLDS_CANVAS_VERSION=\"<!(node -p \"process.env.MLDS_CANVAS_VERSION || require('canvas/package.json').version\")\""],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-O2"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-O3", "-Wall", "-Wextra"]
    }
  ]
}
