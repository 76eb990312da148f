package oauth

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcplens/mcplens/loader/config"
)

// Options say where tokens go and how the user is reached.
type Options struct {
	// Store keeps the tokens (required).
	Store *Store
	// Config is the config file's path, for the hint of a NeedsLoginError.
	Config string
	// Show is told the authorization URL before the browser opens: it is
	// always shown, for a machine with no browser.
	Show func(url string)
	// Open opens the URL in a browser; nil is opener.Open. The URL has
	// passed opener.Check already.
	Open func(url string) error
	// RequestTimeout bounds each request of the flow; 0 is
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// ClientID and ClientSecret pre-register a client when the server's
	// config names none (mcplens login --client-id).
	ClientID, ClientSecret string
	// ClientMetadataURL, when set, is the HTTPS URL of a client ID
	// metadata document describing mcplens, used when the authorization
	// server supports them.
	ClientMetadataURL string

	// Login lets a Transport run the flow itself when the server refuses a
	// request (check --login, call --login): from that refusal's challenge,
	// telling Show the URL, at most maxLogins times, and the request sent
	// once more. Without it a refusal is a *NeedsLoginError.
	Login bool

	// reach, when set, replaces the reach found from the server's URL
	// (tests: a server at 127.0.0.1 taken for a public one).
	reach reach
}

func (o *Options) requestTimeout() time.Duration {
	if o.RequestTimeout > 0 {
		return o.RequestTimeout
	}
	return DefaultRequestTimeout
}

// Applies reports whether OAuth applies to spec: a remote server for which
// the config gives no Authorization header of its own (a static header,
// or one from ${env:TOKEN}, wins).
func Applies(spec config.ServerSpec) bool {
	if spec.Transport == config.TransportStdio || spec.Transport == "" || spec.URL == "" {
		return false
	}
	return !slices.ContainsFunc(spec.Headers, func(h config.Header) bool { return strings.EqualFold(h.Name, "Authorization") })
}

// ClientKey is the client identity tokens of spec are kept under: the
// config's pre-registered client ID, or "" for mcplens's own client.
func ClientKey(spec config.ServerSpec) string {
	if spec.OAuth != nil {
		return spec.OAuth.ClientID
	}
	return ""
}

// Login runs the authorization flow for spec's server: it asks the server
// for what it wants, discovers its authorization server, registers (a
// client ID metadata document when o names one and the server takes them,
// else the pre-registered client of the config or of o, else dynamic
// registration), sends the user's browser to the authorization URL
// (o.Show is told it) with PKCE S256 and the resource parameter, takes the
// code on a loopback redirect, checks iss, exchanges the code and stores
// the token. An error is a *StepError naming the step.
func Login(ctx context.Context, spec config.ServerSpec, o Options) error {
	_, err := login(ctx, spec, o, false)
	return err
}

// LoginIfAsked runs Login when the server refuses a client with no token
// at its first requests (initialize, then tools/list), and reports whether
// it did: a server that lets them through is left to the Transport, which
// logs in (Options.Login) when a later request is refused.
func LoginIfAsked(ctx context.Context, spec config.ServerSpec, o Options) (bool, error) {
	return login(ctx, spec, o, true)
}

func login(ctx context.Context, spec config.ServerSpec, o Options, ifAsked bool) (bool, error) {
	if !Applies(spec) {
		return false, fmt.Errorf("server %q: OAuth applies to a remote server with no Authorization header of its own", spec.Label)
	}
	req, resp, asked, err := challenge(ctx, spec, o.requestTimeout())
	if err != nil || !asked && ifAsked {
		return false, err
	}
	return true, authorize(ctx, spec, o, req, resp)
}

// authorize runs the flow from the refusal resp of req: its challenge
// (resource_metadata, scope) is the one the flow follows, and a step-up's
// scopes are asked besides those the stored token was granted by the same
// issuer.
func authorize(ctx context.Context, spec config.ServerSpec, o Options, req *http.Request, resp *http.Response) error {
	steps, client := newFlow(ctx, spec.URL, &o)
	cfg := spec.OAuth
	if cfg == nil {
		cfg = &config.OAuth{}
	}
	cb, err := listen(cfg.CallbackPort)
	if err != nil {
		return err
	}
	defer cb.close()

	entry := &Entry{Server: spec.URL, Client: ClientKey(spec)}
	hc := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              cb.redirectURL(),
		AuthorizationCodeFetcher: cb.fetcher(&o, steps),
		RequestRefreshToken:      true,
		Client:                   client,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs:            []string{cb.redirectURL()},
			ClientName:              "mcplens",
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			TokenEndpointAuthMethod: "none",
		}},
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			entry.ClientID, entry.ClientSecret, entry.Scopes = c.ClientID, c.ClientSecret, c.Scopes
			entry.TokenURL, entry.AuthStyle, entry.Token = c.Endpoint.TokenURL, c.Endpoint.AuthStyle, tok
			return oauth2.StaticTokenSource(tok), nil
		},
	}
	id, secret := cfg.ClientID, cfg.ClientSecret
	if id == "" {
		id, secret = o.ClientID, o.ClientSecret
	}
	if id != "" {
		pre := &oauthex.ClientCredentials{ClientID: id}
		if secret != "" {
			pre.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: secret}
		}
		hc.PreregisteredClient = pre
	}
	if o.ClientMetadataURL != "" {
		hc.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: o.ClientMetadataURL}
	}
	var prev *Entry // the stored login: its scopes count only with the same issuer
	if e, err := o.Store.Get(entry.Server, entry.Client); err == nil {
		prev = e
	}
	if pre := hc.PreregisteredClient; pre != nil && prev != nil && prev.Issuer != "" && prev.ClientID == pre.ClientID {
		// A client registered with one authorization server is bound to
		// it: should the server's have moved, the SDK refuses before its
		// ID or secret reaches the new one.
		pre.Issuer = prev.Issuer
	}
	asked := stepUpScopes(resp) // a 403 insufficient_scope's: asked whatever the config says
	hc.ScopeFilter = func(discovered []string) []string {
		want := discovered
		if len(cfg.Scopes) > 0 {
			want = cfg.Scopes // the config's scopes win over what the server advertises
		}
		want = unionScopes(want, asked)
		if prev != nil && prev.Issuer == steps.issuerSeen() {
			// what the stored token was granted, and a step-up asked for since
			want = unionScopes(unionScopes(prev.Scopes, prev.Wanted), want)
		}
		return want
	}
	h, err := auth.NewAuthorizationCodeHandler(hc)
	if err != nil {
		return fmt.Errorf("server %q: %w", spec.Label, err)
	}

	if err := steps.fail(h.Authorize(ctx, req, resp)); err != nil {
		return err
	}
	if entry.Token == nil {
		return fmt.Errorf("server %q: the authorization server granted no token", spec.Label)
	}
	entry.Issuer = steps.issuerSeen()
	switch {
	case o.ClientMetadataURL != "" && entry.ClientID == o.ClientMetadataURL:
		entry.Registration = "metadata document"
	case id != "" && entry.ClientID == id && cfg.ClientID == "":
		entry.Registration = "pre-registered (flags)"
	case id != "" && entry.ClientID == id:
		entry.Registration = "pre-registered"
	default:
		entry.Registration = "dynamic"
	}
	return o.Store.Put(entry)
}

// unionScopes is a, then what b adds.
func unionScopes(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
