package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// maxLogins bounds the logins one Transport runs on its own (Options.Login):
// a server that refuses every token it is given (a 403 insufficient_scope
// for a scope its authorization server never grants) is asked no more than
// this many times, and each refused request is sent again once.
const maxLogins = 3

// relogin logs in from the refusal resp of req when Options.Login allows
// it, and returns the request to send again. One login runs at a time: a
// request refused while another's login ran is sent again with its token,
// without a login of its own. ok is false when no login may run, the limit
// is reached, or the login failed (why says so).
func (t *Transport) relogin(req *http.Request, resp *http.Response, gen int) (*http.Request, bool) {
	if !t.opts.Login {
		return nil, false
	}
	again, err := resend(req)
	if err != nil {
		return nil, false
	}
	t.login.Lock()
	defer t.login.Unlock()
	t.mu.Lock()
	if t.gen != gen { // another request's login ran meanwhile
		t.mu.Unlock()
		drain(resp)
		return again, true
	}
	if t.logins >= maxLogins {
		t.why = fmt.Sprintf("the server refused again after %d logins", maxLogins)
		t.mu.Unlock()
		return nil, false
	}
	t.logins++
	t.mu.Unlock()

	refusal := &http.Response{StatusCode: resp.StatusCode, Header: resp.Header.Clone(), Body: http.NoBody}
	drain(resp)
	resp.Body = http.NoBody
	ctx, cancel := loginContext(req.Context())
	err = authorize(ctx, t.spec, t.opts, req, refusal)
	cancel()
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.why = err.Error()
		return nil, false
	}
	t.src, t.why = nil, "" // the new token, read from the store
	t.gen++
	return again, true
}

// LoginBudget bounds one login: the user has this long to finish in the
// browser.
const LoginBudget = 10 * time.Minute

// loginContext is the context of a login a refused request starts: the
// request's values, bounded by LoginBudget rather than the request's own
// deadline (a probe's few seconds would cut a login short, and the token
// it gets serves the next request), and ended when the request is
// cancelled (the user's interrupt).
func loginContext(req context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(req), LoginBudget)
	stop := context.AfterFunc(req, func() {
		if errors.Is(req.Err(), context.Canceled) {
			cancel()
		}
	})
	return ctx, func() { stop(); cancel() }
}

// resend is req to send again: its body read anew.
func resend(req *http.Request) (*http.Request, error) {
	again := req.Clone(req.Context())
	if req.Body == nil || req.Body == http.NoBody {
		return again, nil
	}
	if req.GetBody == nil {
		return nil, fmt.Errorf("the request's body cannot be sent again")
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	again.Body = body
	return again, nil
}

// stepUpScopes are the scopes a 403 insufficient_scope challenge asks for,
// nil for any other answer.
func stepUpScopes(resp *http.Response) []string {
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		return nil
	}
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return nil
	}
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params["error"] == "insufficient_scope" {
			return strings.Fields(c.Params["scope"])
		}
	}
	return nil
}
