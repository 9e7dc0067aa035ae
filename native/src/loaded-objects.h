// The process's own executable and shared objects (loaded-objects.cc).
#pragma once
#include <cstddef>

// Drops the resident pages of the executable's and the shared objects' read-only mappings
// that hold nothing but the file's bytes; returns how many resident bytes left. Main thread.
size_t DropLoadedObjectPages();
