// Strings over mapped files (mapped-source.cc).
#pragma once

// Drops the resident pages of every mapped source from the process; they are read back from
// the page cache when used. Main thread only.
void DropMappedSourcePages();
