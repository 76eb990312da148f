// Package relay owns what `mcplens tap` does between a real MCP client and
// its server: the passthrough (a stdio server run in the client's place, or
// a reverse proxy to an HTTP one), the recording of its frames (JSONL, 0600,
// rotated at a size cap, secrets masked) and the live feed of the same lines
// on a unix socket. It imports model (for masking secrets),
// internal/safefile and internal/procguard (the guard that kills the
// server's process group should the tap die), and must not import ui, report or loader: the relay
// runs in the client's process tree and knows nothing of configs or
// sessions.
//
// The passthrough never depends on the copy. Bytes are passed on first and
// then handed to a Copier, which queues them without blocking (a full queue
// drops the copy and counts it; lines are assembled before they are
// queued, so that only whole frames cross) and encodes frames on its own
// goroutine for its sinks; a feed reader that is slow, full or gone loses lines, never
// the relay's time. On Linux the stdio relay passes bytes through the
// kernel (splice) and tees the copy into a pipe of its own (tee), so that
// no byte passed is copied into the relay, and only the copy reads them.
//
//	header := relay.HeaderLine(relay.Source{Server: "alpha", Command: cmd}, time.Now())
//	rec, err := relay.Record("alpha.jsonl", header, relay.RecordOptions{})
//	if err != nil { ... }
//	copier := relay.NewCopier(relay.CopierOptions{Server: "alpha"}, rec)
//	s := relay.Stdio{Command: cmd[0], Args: cmd[1:], Stdin: os.Stdin, Stdout: os.Stdout,
//		Stderr: os.Stderr, Copy: copier, Signals: sigs}
//	code, err := s.Run()
//	copier.Close()
//
// # Recording format
//
// The format is package recording's (its Header, Line, directions and
// version); this package writes it, capture reads it back. The first line names the format and its version, and what was tapped:
//
//	{"format":"mcplens-tap","version":1,"server":"alpha","t":"2026-12-01T10:00:00.000000001Z","command":["node","srv.js"]}
//
// then one object per frame:
//
//	{"t":"...","server":"alpha","dir":"c2s","frame":{"jsonrpc":"2.0","id":1,"method":"initialize",...}}
//	{"t":"...","server":"alpha","dir":"s2c","text":"log: not JSON"}
//	{"t":"...","server":"alpha","dir":"stderr","text":"listening on stdio"}
//
// "t" is when the frame's last byte passed the relay (RFC 3339,
// nanoseconds, UTC; over HTTP, when the proxy handed it on); "dir" is
// c2s, s2c or stderr. The directions are copied apart: a quick answer may
// be recorded a line before its request, and "t" orders them. A frame
// that is valid JSON is kept as the JSON value "frame" (on one line);
// anything else, as the string "text"
// (invalid UTF-8 becomes U+FFFD). Over stdio a frame is one line, and a
// last line without a newline is a frame too. Over HTTP, a request or
// response body is a frame, and so is each server-sent event's data (with
// "sse" naming a named event); the first frame of an exchange carries
// "http": its method and URL, or its status, and its headers. A gzip body
// is recorded inflated.
//
// The copy keeps at most DefaultFrameCap bytes of a frame: a longer one is
// recorded as "text", its first CutKeep bytes, with "cut" giving its size. A notice
// {"t":...,"server":...,"dropped":N} says that N chunks of bytes were left
// out of the copy (the frames they belonged to are missing); a feed reader
// gets {"t":...,"feedDropped":N} for lines it was too slow to take, or
// that passed before it connected and that the feed did not keep.
//
// Secrets are masked before a line is written (model.Redactor, the one
// masker): every header value but those HTTP and MCP define
// (model.MaskHeader: a header the client's config declared is masked
// whatever its name), the shapes of secrets anywhere (model.MaskTokens:
// ghp_..., sk-..., xoxb-..., AKIA..., user:password@, webhook URLs,
// Bearer X), the values the copier is given (those of the server's
// command line and environment, model.SecretEnv), and the values it
// learns from the headers it passes (Authorization, Cookie, Set-Cookie, a
// declared header), in every frame after, so that a body echoing them
// holds none. A frame that masking would leave invalid JSON is
// recorded as text.
package relay
