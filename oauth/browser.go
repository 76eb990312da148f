package oauth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mcplens/mcplens/opener"
)

// callbackPath is the path of the loopback redirect URI.
const callbackPath = "/callback"

// A callback is the loopback listener the authorization server sends the
// browser back to: http://127.0.0.1:PORT/callback.
type callback struct {
	ln      net.Listener
	results chan callbackResult
	srv     *http.Server
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

// listen opens the redirect listener on 127.0.0.1, on port or, when port
// is 0, a free one.
func listen(port int) (*callback, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("opening the loopback redirect listener: %w", err)
	}
	c := &callback{ln: ln, results: make(chan callbackResult, 1)}
	c.srv = &http.Server{Handler: http.HandlerFunc(c.serve)}
	go c.srv.Serve(ln)
	return c, nil
}

// redirectURL is the redirect URI to register and send.
func (c *callback) redirectURL() string {
	return "http://" + c.ln.Addr().String() + callbackPath
}

func (c *callback) close() { c.srv.Close() }

// serve takes the authorization response: the code, state and iss, or the
// server's error.
func (c *callback) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != callbackPath {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	var res callbackResult
	if e := q.Get("error"); e != "" {
		msg := e
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		res.err = fmt.Errorf("the authorization server refused: %s", clip(msg))
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintln(w, "mcplens: authorization refused. You can close this tab.")
	} else {
		res.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		fmt.Fprintln(w, "mcplens: logged in. You can close this tab.")
	}
	select {
	case c.results <- res:
	default: // a second visit: the first answer stands
	}
}

// fetcher is the SDK's AuthorizationCodeFetcher: it shows the URL, opens
// the browser and waits for the redirect.
func (c *callback) fetcher(o *Options, steps *stepper) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		steps.enter(StepAuthorization, args.URL)
		u, err := opener.Check(args.URL) // refused: neither shown to visit nor opened
		if err != nil {
			return nil, err
		}
		if o.Show != nil {
			o.Show(u)
		}
		open := o.Open
		if open == nil {
			open = opener.Open
		}
		if err := open(u); err != nil && o.Show == nil {
			return nil, err
		}
		select {
		case r := <-c.results:
			steps.legacyResult(r.res)
			return r.res, r.err
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the browser to come back: %w", ctx.Err())
		}
	}
}
