// Package oauth authorizes mcplens with remote MCP servers that ask for it,
// per the MCP authorization spec (2025-11-25 and 2026-07-28, with the
// 2025-03-26 flows as the reference SDKs pass them): Login runs the whole
// flow once, with the user's browser and a loopback redirect, from the
// challenge of the first request the server refuses (initialize, else
// tools/list); a Transport adds the stored token to every request a
// session sends a server, refreshing it as it expires, and a 401 or a 403
// insufficient_scope to any request is a refusal: with Options.Login
// (check --login, call --login) it logs in from that refusal's challenge,
// asking the scopes held and asked, at most maxLogins times, and sends the
// request once more; without it (check, call, the interface, which asks
// the user first) the refusal is a *NeedsLoginError. Tokens are kept in a
// Store, a file readable by its owner alone, each bound to the issuer that
// gave it.
//
// The flow itself is the official Go SDK's (auth.AuthorizationCodeHandler
// and oauthex: protected resource and authorization server discovery,
// client ID metadata documents, pre-registration, dynamic registration,
// PKCE S256, the resource parameter, the iss check, step-up) and tokens are
// golang.org/x/oauth2's. This package adds what mcplens needs around it:
// which step failed and what the server said (a *StepError), refusing an
// authorization server that does not advertise S256, the loopback
// listener, the browser (through the opener, which refuses an
// authorization URL that is not https or loopback http), where tokens
// are kept, and the 2025-03-26 server whose own metadata names an issuer
// under its origin (issuer.go).
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
