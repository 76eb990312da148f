// Package scale generates the large tool surfaces mcplens is measured on,
// and builds the scalable test server (testdata/servers/scale) that serves
// them over stdio. The same generator feeds the in-memory benchmarks (model,
// ui) and the real server, so both measure one shape of surface:
//
//	tools := scale.Tools(3, 200)            // server 3's 200 tools
//	bin := scale.Path(b)                    // the built server
//	args := scale.Args(3, 200, 200*time.Millisecond)
//
// The shape imitates an aggregator config: names are verb_noun, most with
// a product prefix (a quarter of the servers share unprefixed names with
// each other), one in ten is a generic name (search, fetch, ...)
// that many servers advertise, a few have a dot or are long enough to break
// a qualified-name limit, and every tool has a description of a sentence or
// three and an input schema of about 1 KB. Output is deterministic.
//
// Recording writes such surfaces as a tap's recording holds them, with
// calls, for the benchmarks of the file readers:
//
//	scale.Recording{Servers: 50000}.Write(f) // 44 MB of servers
//	scale.Recording{Servers: 1, Tools: 200, Calls: 50000, Result: 4500}.Write(f) // 242 MB of calls
//
// It is for tests and benchmarks only; production code never imports it, and it never imports ui or loader.
package scale
