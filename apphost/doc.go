// Package apphost hosts an MCP App (the io.modelcontextprotocol/ui
// extension): a loopback-only HTTP server (127.0.0.1, a random port, an
// unguessable path) serves a small host page, which embeds the app's HTML
// in a sandboxed iframe under the app resource's content security policy,
// sent as response headers. The host page relays what the app posts to
// mcplens, which answers as the app's host: the app's ui/initialize with
// the host context, the tool's input and result, the app's tools/call and
// resources/read relayed to its server after a host's checks (the tool is
// the server's and visible to apps, its arguments within MaxArguments and
// its input schema by argcheck; the resource is the server's), its
// ui/open-link asked about (Options.OpenLink) or else refused, and its
// ui/message shown and refused: nothing is followed silently.
// Every message either way is a frame in the server's log, the app named
// (mcpsession.Frame.App).
//
//	h, err := apphost.Start(ctx, apphost.Options{Server: "board", Tool: tool, ...})
//	if err != nil { ... }
//	defer h.Close()
//	fmt.Println(h.URL()) // hand it to opener.Open, or print it
//	<-h.Done()           // the lifetime ended, or Close
//
// It reads nothing from disk and never contacts a server itself: Options
// gives it the reading and the calling, through the caller's session.
package apphost
