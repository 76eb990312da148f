// Package loader runs sessions only: it turns the servers of a
// config.Config into live MCP connections and reports what each server
// advertises, byte for byte. Reading config files is loader/config's job;
// loader imports it (and model) and never ui or report. What it reports,
// the events, frames and call results, are mcpsession's values, so that
// their readers need not import loader or mcp-go.
//
// Open spawns each stdio server as its own child process and taps its
// stdin and stdout so each JSON-RPC line is kept exactly as it crossed the
// pipe (a FrameLog per server); for streamable HTTP and SSE servers it
// taps the HTTP bodies instead, and sets each request's standard headers
// from its body (headers.go). Every frame a tap sees is parsed once and
// handed to one observer, the server's connection, which passes it on in
// order: the protocol monitor names what the frame breaks, the FrameLog
// keeps it, the page taker takes the answers to the lister's own requests,
// the call running keeps its exchange (frame.go, conn.frame). It lists each
// server's tools as raw rows, so a row with no usable name is still shown;
// over stdio the lister writes its tools/list requests itself, beside
// mcp-go's, and takes their answers from the tap (pages.go). The loader
// never decides names: that is model's job, and never replaces the
// process-wide logger: mcp-go's transports log to Options.Logger.
//
// Beside its tools, each server's resources, resource templates and
// prompts are listed when it declares them, bounded alike, and listed again
// on their list_changed (Event.Offers, offers.go); ReadResource,
// Subscribe, GetPrompt and Complete make one request each, over the same
// path as the listing (resources.go).
//
// Each server is sent the handshake of Options.Handshake (a client
// profile's clientInfo, capabilities, protocol revision and HTTP headers;
// mcplens's own by default), and the requests a server sends back are
// answered as that client would: roots/list, elicitation/create and
// sampling/createMessage as Options.Answers say when the handshake declares
// them, refused with -32601 when it does not (answer.go). SetRoots changes
// the roots and tells the servers whose handshake promises
// notifications/roots/list_changed (roots.go). A reconnect keeps what the
// session learnt of the server: its log level (SetLogLevel) is set again,
// and a stateless handshake the server fell back from asks with initialize
// straight away (handshake.go). Restart, Disconnect and Connect act on
// one server alone, built on the same reconnect (restart.go); a
// disconnected server is Disconnected until started again. A call cancelled with a cause tells the
// server that cause as its reason (cancel.go).
//
// A request a server answers input_required (a multi-round request) is
// answered with the same answers and sent again with the requestState as
// it came, within MaxRounds (rounds.go). A call that becomes a task (asked
// for with AsTask, 2025-11-25; or the server's choice under the tasks
// extension, 2026-07-28) is followed to its result: tasks/get at the
// server's interval, bounded, its questions answered, tasks/cancel when
// the call's context ends first (tasks.go).
//
// Each stdio server leads a process group of its own, which shutdown ends
// with SIGKILL; a process guard (Options.Guard, internal/procguard) kills those groups should mcplens
// die without closing its session. A write to a server is bounded by the
// call it belongs to, so a server that stops reading fails the call
// rather than hanging it (ErrStalled).
//
//	cfg, err := config.Load("mcp.json")
//	if err != nil {
//		return err // "mcp.json:3:9: invalid character ',' ..."
//	}
//	s := loader.Open(cfg, loader.Options{})
//	defer s.Close()
//	for ev := range s.Events() {
//		switch {
//		case ev.Frames:
//			// new frames on s.FrameLog(ev.Server)
//		case ev.State == mcpsession.Ready:
//			// ev.Tools is what ev.Server advertised, in its order
//		case ev.State == mcpsession.Failed:
//			// ev.Err says what failed, ev.Stderr what the server said
//		}
//	}
package loader
