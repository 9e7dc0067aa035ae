// releaseMemory(): hands memory the process no longer uses back to the kernel, once a burst
// of allocation is over (the start). V8 collects with memory reduction (it shrinks the new
// space the start grew and frees pooled pages), then glibc's malloc returns the free pages of
// its arenas, which it otherwise keeps after a peak. Both are anonymous memory: what the
// kernel could not take back by itself. Main thread only (V8's isolate).
#include <napi.h>
#include <v8.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static Napi::Value ReleaseMemory(const Napi::CallbackInfo& info) {
  v8::Isolate* isolate = v8::Isolate::GetCurrent();
  if (isolate) isolate->LowMemoryNotification();
#ifdef __GLIBC__
  malloc_trim(0);
#endif
  return info.Env().Undefined();
}

Napi::Function InitReleaseMemory(Napi::Env env) {
  return Napi::Function::New(env, ReleaseMemory, "releaseMemory");
}
