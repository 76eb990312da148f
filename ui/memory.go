package ui

// MemoryLimit is the soft memory limit mcplens gives the Go runtime while
// the interface runs (debug.SetMemoryLimit; GOMEMLIMIT overrides it). The
// interface holds the whole surface: 20,000 tools with ~1 KB schemas are
// some 50 MB live, and the collector left to its default lets the heap grow
// to twice what is live before it runs. Under the limit it runs more often
// as the heap nears 80 MB instead. A surface larger than that is only
// collected more often; nothing fails.
const MemoryLimit = 80 << 20
