// releaseMemory(): hands memory the process no longer uses back to the kernel, once a burst
// of allocation is over (start, a reload). V8 collects with memory reduction (it shrinks the
// new space the start grew and frees pooled pages), then glibc's malloc returns the free pages
// of its arenas, which it otherwise keeps after a peak, and the code the start alone ran
// (loaded-objects.cc) leaves the process. Returns the bytes of code pages dropped. Main thread
// only (V8's isolate).
#include <napi.h>
#include <v8.h>
#include "loaded-objects.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif

static Napi::Value ReleaseMemory(const Napi::CallbackInfo& info) {
  v8::Isolate* isolate = v8::Isolate::GetCurrent();
  if (isolate) isolate->LowMemoryNotification();
#ifdef __GLIBC__
  malloc_trim(0);
#endif
  return Napi::Number::New(info.Env(), static_cast<double>(DropLoadedObjectPages()));
}

Napi::Function InitReleaseMemory(Napi::Env env) {
  return Napi::Function::New(env, ReleaseMemory, "releaseMemory");
}
