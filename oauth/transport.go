package oauth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcplens/mcplens/loader/config"
)

// A Transport adds the stored token of one server to the requests sent to
// that server's origin (never to another, should a redirect lead there),
// refreshes the token as it expires and keeps the refreshed one. A 401, or
// a 403 whose challenge is insufficient_scope, to any request is a
// refusal: with Options.Login the Transport logs in from that refusal's
// challenge and sends the request once more (see relogin); without it, or
// when that fails, the request fails with a *NeedsLoginError (and a
// step-up's scopes are kept for the next Login to ask for).
type Transport struct {
	spec   config.ServerSpec
	next   http.RoundTripper
	opts   Options
	origin string

	mu      sync.Mutex
	src     oauth2.TokenSource // nil until a stored token is read
	why     string             // why the stored token is unusable
	gen     int                // how many logins the Transport ran
	refusal error              // the last refusal, a *NeedsLoginError
	// login lets one login run at a time; logins counts them (maxLogins).
	login  sync.Mutex
	logins int
}

// NewTransport returns the transport that authorizes spec's requests over
// next.
func NewTransport(spec config.ServerSpec, next http.RoundTripper, o Options) *Transport {
	t := &Transport{spec: spec, next: next, opts: o}
	if u, err := url.Parse(spec.URL); err == nil {
		t.origin = u.Scheme + "://" + u.Host
	}
	return t
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme+"://"+req.URL.Host != t.origin {
		return t.next.RoundTrip(req)
	}
	resp, gen, err := t.send(req)
	if err != nil || !refused(resp) {
		return resp, err
	}
	if again, ok := t.relogin(req, resp, gen); ok {
		if resp, _, err = t.send(again); err != nil || !refused(resp) {
			return resp, err
		}
	}
	drain(resp)
	err = t.needsLogin(resp)
	t.mu.Lock()
	t.refusal = err
	t.mu.Unlock()
	return nil, err
}

// Refused is the *NeedsLoginError of the last request the server refused,
// nil when it refused none: a caller that falls back from a refused
// request to another (mcp-go from a server/discover probe to initialize)
// reads here that the server wants a login, whatever the fallback said.
func (t *Transport) Refused() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refusal
}

// send sends req with the token, when there is one, and says which login's
// token it was.
func (t *Transport) send(req *http.Request) (*http.Response, int, error) {
	tok, gen := t.token(req.Context())
	if tok != nil {
		req = req.Clone(req.Context())
		tok.SetAuthHeader(req)
	}
	resp, err := t.next.RoundTrip(req)
	return resp, gen, err
}

// token is the stored token, refreshed when it expired; nil when none is
// usable (why says why: the server's 401 says what follows).
func (t *Transport) token(ctx context.Context) (*oauth2.Token, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tokenLocked(ctx), t.gen
}

func (t *Transport) tokenLocked(ctx context.Context) *oauth2.Token {
	if t.src == nil {
		e, err := t.opts.Store.Get(t.spec.URL, ClientKey(t.spec))
		if err != nil {
			// A server that wants no token must not fail for the file.
			t.why = err.Error()
			return nil
		}
		if e == nil || e.Token == nil {
			return nil
		}
		steps, client := newFlow(ctx, t.spec.URL, &t.opts)
		rctx := context.WithValue(context.WithoutCancel(ctx), oauth2.HTTPClient, client)
		t.src = &keeper{src: e.config().TokenSource(rctx, e.Token), entry: e, store: t.opts.Store, steps: steps}
	}
	tok, err := t.src.Token()
	if err != nil {
		t.why = err.Error()
		return nil
	}
	return tok
}

// needsLogin is the error of a server that refused with no login allowed.
func (t *Transport) needsLogin(resp *http.Response) error {
	t.mu.Lock()
	why := t.why
	t.mu.Unlock()
	if resp.StatusCode == http.StatusForbidden {
		why = "the server asks for more scopes than the stored token has"
		if s := challengeScope(resp); s != "" {
			why += ": " + clip(s)
			t.want(strings.Fields(s))
		}
	}
	return &NeedsLoginError{Config: t.opts.Config, Server: t.spec.Label, Why: why}
}

// want keeps the scopes a step-up asked for with the stored token, for
// the next Login.
func (t *Transport) want(scopes []string) {
	e, err := t.opts.Store.Get(t.spec.URL, ClientKey(t.spec))
	if err != nil || e == nil {
		return
	}
	e.Wanted = unionScopes(e.Wanted, scopes)
	_ = t.opts.Store.Put(e) // at worst the next login asks for the same scopes again
}

// refused reports whether resp asks for authorization: a 401, or a 403
// whose Bearer challenge is insufficient_scope (a step-up). Any other 403
// is the server's answer.
func refused(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		return true
	case http.StatusForbidden:
		cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
		if err != nil {
			return false
		}
		for _, c := range cs {
			if c.Scheme == "bearer" && c.Params["error"] == "insufficient_scope" {
				return true
			}
		}
	}
	return false
}

// challengeScope is the scope a Bearer challenge names.
func challengeScope(resp *http.Response) string {
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params["scope"] != "" {
			return c.Params["scope"]
		}
	}
	return ""
}

func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxSaid))
	resp.Body.Close()
}

// A keeper is a refreshing token source that stores each new token.
type keeper struct {
	src   oauth2.TokenSource
	entry *Entry
	store *Store
	steps *stepper
}

func (k *keeper) Token() (*oauth2.Token, error) {
	tok, err := k.src.Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode != "" {
			err = errors.New(strings.TrimSuffix(re.ErrorCode+": "+re.ErrorDescription, ": "))
		}
		return nil, k.steps.fail(err)
	}
	if tok.AccessToken != k.entry.Token.AccessToken {
		e := *k.entry
		e.Token = tok
		if err := k.store.Put(&e); err != nil {
			return nil, err
		}
		k.entry = &e
	}
	return tok, nil
}
