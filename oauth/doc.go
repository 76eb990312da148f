// Package oauth authorizes mcplens with remote MCP servers that ask for it,
// per the MCP authorization spec (2025-11-25, with the 2025-03-26 fallback):
// Login runs the whole flow once, with the user's browser and a loopback
// redirect; a Transport adds the stored token to every request a session
// sends a server, refreshing it as it expires, and turns a 401 or a 403
// insufficient_scope into a *NeedsLoginError when no login may run (check,
// call and the interface never open a browser on their own). Tokens are
// kept in a Store, a file readable by its owner alone.
//
// The flow itself is the official Go SDK's (auth.AuthorizationCodeHandler
// and oauthex: protected resource and authorization server discovery,
// client ID metadata documents, pre-registration, dynamic registration,
// PKCE S256, the resource parameter, the iss check, step-up) and tokens are
// golang.org/x/oauth2's. This package adds what mcplens needs around it:
// which step failed and what the server said (a *StepError), refusing an
// authorization server that does not advertise S256, the loopback
// listener, the browser (through the opener, which refuses an
// authorization URL that is not https or loopback http), and where tokens
// are kept.
//
// Every request of the flow stays within the server's reach: https, or
// http to a loopback host; and, checked on the URL, at every redirect and
// on the address each connection is made to (so a name that resolves
// elsewhere later changes nothing), an address no closer than the server's
// own: a public server's flow reaches public addresses alone, a private
// network's server private and public ones, a server on this machine any
// (link-local, unspecified and multicast addresses never). Each request is
// bounded to DefaultRequestTimeout (Options.RequestTimeout) and its answer
// to 1 MiB.
//
// It imports loader/config, model, opener and internal/safefile, never
// loader, surface, report or ui.
//
//	store, _ := oauth.DefaultStore()
//	err := oauth.Login(ctx, spec, oauth.Options{Store: store, Show: func(u string) { fmt.Println(u) }})
//	// later, in a session: every request to spec.URL carries the token
//	rt := oauth.NewTransport(spec, http.DefaultTransport, oauth.Options{Store: store})
package oauth
