package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/opener"
)

// DefaultRequestTimeout bounds each request of the flow (discovery,
// registration, the token exchange, a refresh, the first request to the
// server) when Options.RequestTimeout is 0: connecting, sending and
// reading the whole answer. Past it the request fails, and so the login.
const DefaultRequestTimeout = 30 * time.Second

// maxBody bounds every answer the flow reads: a longer one fails the
// request.
const maxBody = 1 << 20

// maxRedirects bounds the redirects one request of the flow follows.
const maxRedirects = 5

// A netClass is where an address is, from this machine's side: its own
// (loopback), a private network's (RFC 1918, fc00::/7, 100.64.0.0/10),
// the Internet's, or nowhere a server of the flow may be (link-local such
// as 169.254.169.254, unspecified, multicast).
type netClass int

const (
	classNever netClass = iota
	classLoopback
	classPrivate
	classPublic
)

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

func classOf(ip netip.Addr) netClass {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid(), ip.IsUnspecified(), ip.IsLinkLocalUnicast(), ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return classNever
	case ip.IsLoopback():
		return classLoopback
	case ip.IsPrivate(), cgnat.Contains(ip):
		return classPrivate
	}
	return classPublic
}

func (c netClass) String() string {
	return [...]string{"a link-local, unspecified or multicast address", "a loopback address", "a private address", "a public address"}[c]
}

// A reach is the class of the server being authorized: the flow may
// connect to addresses of that class or a more public one, never to a
// class-never address. A server on this machine may so name any; a public
// server names public addresses alone (its metadata at 127.0.0.1 or
// 10.0.0.1 would be a request forged against the user's own network).
type reach netClass

func (r reach) allows(c netClass) bool { return c != classNever && c >= netClass(r) }

// reachOf is the reach of the server at rawURL: the class of its address,
// or of the most public address its name resolves to (public when it
// does not resolve).
func reachOf(ctx context.Context, rawURL string, timeout time.Duration) reach {
	u, err := url.Parse(rawURL)
	if err != nil {
		return reach(classPublic)
	}
	host := u.Hostname()
	if opener.LoopbackHost(host) {
		return reach(classLoopback)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return serverReach(ip)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil || len(ips) == 0 {
		return reach(classPublic)
	}
	r := reach(classLoopback)
	for _, ip := range ips {
		r = max(r, serverReach(ip))
	}
	return r
}

// serverReach is the reach of a server at ip: a server at an unspecified
// address is this machine, one at a link-local address a private network.
func serverReach(ip netip.Addr) reach {
	ip = ip.Unmap()
	switch {
	case ip.IsUnspecified():
		return reach(classLoopback)
	case ip.IsLinkLocalUnicast():
		return reach(classPrivate)
	}
	return reach(classOf(ip))
}

// A reachError is a request the flow refused to send or to connect.
type reachError struct{ msg string }

func (e *reachError) Error() string { return e.msg }

func refuse(format string, args ...any) error { return &reachError{fmt.Sprintf(format, args...)} }

// checkURL refuses a URL the flow may not request: one that is not https
// or http to a loopback host (the opener's rule), or whose host is an
// address outside r.
func (r reach) checkURL(u *url.URL) error {
	if _, err := opener.Check(u.String()); err != nil {
		var re *opener.RefusedError
		if errors.As(err, &re) {
			return refuse("refusing to request %s: %s", u.Redacted(), re.Reason)
		}
		return err
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil && !r.allows(classOf(ip)) {
		return refuse("refusing to request %s: %s, and the server is at %s", u.Redacted(), classOf(ip), netClass(r))
	}
	return nil
}

// control is the dialer's last word: the address actually connected to,
// after any name was resolved, must be within r (a name that resolves to
// a loopback address is refused as the address itself is).
func (r reach) control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return refuse("refusing to connect to %s: not an address", address)
	}
	if c := classOf(ip); !r.allows(c) {
		return refuse("refusing to connect to %s: %s, and the server is at %s", address, c, netClass(r))
	}
	return nil
}

// newFlow returns the client of the flow's requests for spec's server and
// the stepper under it: each request checked against the server's reach
// before it is sent, at every connection and at every redirect, bounded
// in time and in size.
func newFlow(ctx context.Context, spec string, o *Options) (*stepper, *http.Client) {
	timeout := o.requestTimeout()
	r := o.reach
	if r == 0 {
		r = reachOf(ctx, spec, timeout)
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	if !proxied(base) { // through a proxy, the proxy connects: the URL checks remain
		base.DialContext = (&net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: r.control}).DialContext
	}
	steps := &stepper{next: base, reach: r, timeout: timeout}
	client := &http.Client{Transport: steps, Timeout: timeout, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("more than %d redirects", maxRedirects)
		}
		if via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme != "https" {
			return fmt.Errorf("refusing a redirect from https to %s", req.URL.Redacted())
		}
		return r.checkURL(req.URL)
	}}
	return steps, client
}

// proxied reports whether t sends requests through a proxy.
func proxied(t *http.Transport) bool {
	if t.Proxy == nil {
		return false
	}
	for _, u := range []string{"https://mcplens.invalid/", "http://mcplens.invalid/"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if p, err := t.Proxy(req); err == nil && p != nil {
			return true
		}
	}
	return false
}

// timedOut names a request that outlived its bound.
func timedOut(err error, d time.Duration) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %s: %w", d, err)
	}
	return err
}

// A cappedBody fails a read past maxBody bytes.
type cappedBody struct {
	r    io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	if int64(n) > b.left {
		n, b.left = int(b.left), 0
		return n, fmt.Errorf("the answer is longer than %d bytes", maxBody)
	}
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.r.Close() }
