package apphost

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// The host's bounds.
const (
	// MaxHTML is the most of an app's HTML the host serves; a larger app
	// is refused.
	MaxHTML = 4 << 20
	// MaxMessage is the largest message the host page may relay from the
	// app; a larger one is refused with a frame saying so.
	MaxMessage = 1 << 20
	// MessageRate and MessageBurst bound the app's messages per second: past
	// them a request is refused and a notification dropped, each a frame.
	MessageRate  = 50
	MessageBurst = 100
	// MaxArguments is the largest arguments object of an app's tools/call
	// the host checks and relays; a larger one is refused.
	MaxArguments = 256 << 10
	// Lifetime is how long a host serves when Options.Lifetime is zero.
	Lifetime = 30 * time.Minute
	// RelayTimeout bounds each tool call the host makes for the app (the
	// tool's own, and each tools/call it relays) when Options.RelayTimeout
	// is zero; the host's end bounds them too.
	RelayTimeout = 60 * time.Second
)

// ProtocolVersion is the revision of the extension the host speaks.
const ProtocolVersion = "2026-01-26"

// Options are what a host needs: the app, its server, and the session's
// ways to read and to call.
type Options struct {
	// Server is the server label.
	Server string
	// Tool is the app's tool, as listed; Tool.App names its resource.
	Tool model.Tool
	// Tools and Resources are the server's, as listed: what the app may
	// call and read.
	Tools     []model.Tool
	Resources []model.Resource
	// Args are the tool's arguments, a JSON object.
	Args json.RawMessage
	// Read reads a resource of the server: the resources/read result, as
	// sent (through the caller's session and its bounds).
	Read func(ctx context.Context, uri string) (json.RawMessage, error)
	// Call calls a tool of the server by wire name: the response's result.
	Call func(ctx context.Context, wire string, args json.RawMessage) (json.RawMessage, error)
	// Log keeps every frame between the app and the host: the server's
	// frame log.
	Log *mcpsession.FrameLog
	// Notice is told what the user must see: a link or a message the app
	// asked for, and that it was refused. Text is masked (Mask) and
	// sanitized.
	Notice func(string)
	// Mask hides the config's secrets in a notice before it is cut to
	// its bound, so that no part of a secret is left by the cut; nil
	// masks nothing.
	Mask func(string) string
	// OpenLink asks the user whether to open a link the app asks for, and
	// opens it (through package opener) if so: nil when opened, the reason
	// when refused. It may block until answered or ctx ends. Nil: every
	// link is refused, shown through Notice.
	OpenLink func(ctx context.Context, url string) error
	// Lifetime bounds how long the host serves; zero is Lifetime.
	Lifetime time.Duration
	// RelayTimeout bounds each tool call made for the app; zero is
	// RelayTimeout.
	RelayTimeout time.Duration
	// Version is mcplens's, for the host's hostInfo.
	Version string
}

// A Content is the app resource's first content, read.
type Content struct {
	Text, MIMEType string
	Meta           json.RawMessage
}

// FirstContent reads the first content of a resources/read result: its
// text, or its blob decoded (base64), its type and its _meta.
func FirstContent(result json.RawMessage) (Content, error) {
	var r struct {
		Contents []struct {
			Text     *string         `json:"text"`
			Blob     *string         `json:"blob"`
			MIMEType string          `json:"mimeType"`
			Meta     json.RawMessage `json:"_meta"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return Content{}, fmt.Errorf("result is not a resources/read result: %w", err)
	}
	if len(r.Contents) == 0 {
		return Content{}, errors.New("the result has no contents")
	}
	c := r.Contents[0]
	out := Content{MIMEType: c.MIMEType, Meta: c.Meta}
	switch {
	case c.Text != nil:
		out.Text = *c.Text
	case c.Blob != nil:
		b, err := base64.StdEncoding.DecodeString(*c.Blob)
		if err != nil {
			return Content{}, fmt.Errorf("the content's blob is not base64: %w", err)
		}
		out.Text = string(b)
	default:
		return Content{}, errors.New("the content has neither text nor blob")
	}
	return out, nil
}

// A Host serves one app until its lifetime ends or Close.
type Host struct {
	o      Options
	url    string
	token  string
	html   []byte
	csp    string
	nonce  string
	srv    *http.Server
	bridge *bridge
	done   chan struct{}
	once   sync.Once
	cancel context.CancelFunc
}

// Start reads the app's resource, checks it, and serves the host page on a
// loopback port until ctx ends, the lifetime passes or Close.
func Start(ctx context.Context, o Options) (*Host, error) {
	app := o.Tool.App
	if app == nil || !strings.HasPrefix(app.ResourceURI, model.AppScheme) {
		return nil, fmt.Errorf("tool %s has no app: its _meta.ui names no %s resource", model.QuoteJSON(o.Tool.Name), model.AppScheme)
	}
	if o.Lifetime <= 0 {
		o.Lifetime = Lifetime
	}
	if o.RelayTimeout <= 0 {
		o.RelayTimeout = RelayTimeout
	}
	raw, err := o.Read(ctx, app.ResourceURI)
	var c Content
	if err == nil {
		c, err = FirstContent(raw)
	}
	if err != nil {
		return nil, fmt.Errorf("reading app resource %s: %w", model.QuoteJSON(app.ResourceURI), err)
	}
	if !strings.EqualFold(strings.ReplaceAll(c.MIMEType, " ", ""), model.AppMIMEType) {
		return nil, fmt.Errorf("app resource %s is of type %s, not %s: not hosted", model.QuoteJSON(app.ResourceURI), model.QuoteJSON(c.MIMEType), model.AppMIMEType)
	}
	if len(c.Text) > MaxHTML {
		return nil, fmt.Errorf("app resource %s is %d bytes, over the host's %d", model.QuoteJSON(app.ResourceURI), len(c.Text), MaxHTML)
	}
	res := model.AppResourceOfMeta(c.Meta)
	if i := resourceIndex(o.Resources, app.ResourceURI); i >= 0 {
		listed := model.AppResourceOf(o.Resources[i])
		if len(c.Meta) == 0 {
			res = listed
		} else if differs(listed, res) && o.Notice != nil {
			o.Notice(model.Sanitize(mask(o, fmt.Sprintf("app resource %s: what resources/read declares of its CSP and permissions (%s) is not what resources/list declared, which the lint judged (%s): the host enforces the read one",
				model.QuoteJSON(app.ResourceURI), describe(res), describe(listed)))))
		}
	}
	h := &Host{o: o, html: []byte(c.Text), token: random(), nonce: random(), done: make(chan struct{})}
	h.csp = AppCSP(res) + "; report-uri /" + h.token + "/csp"
	h.bridge = newBridge(o, res)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("hosting app: %w", err)
	}
	h.url = "http://" + ln.Addr().String() + "/" + h.token + "/"
	mux := http.NewServeMux()
	mux.HandleFunc("GET /"+h.token+"/{$}", h.page)
	mux.HandleFunc("GET /"+h.token+"/app", h.app)
	mux.HandleFunc("POST /"+h.token+"/rpc", h.rpc)
	mux.HandleFunc("POST /"+h.token+"/csp", h.violation)
	h.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10}
	life, cancel := context.WithTimeout(ctx, o.Lifetime)
	h.cancel = cancel
	h.bridge.life = life
	go func() { _ = h.srv.Serve(ln) }()
	go func() {
		<-life.Done()
		h.Close()
	}()
	return h, nil
}

// URL is the host page's address: loopback, with its secret path.
func (h *Host) URL() string { return h.url }

// Done is closed when the host has stopped serving.
func (h *Host) Done() <-chan struct{} { return h.done }

// Close stops serving; it may be called more than once.
func (h *Host) Close() error {
	var err error
	h.once.Do(func() {
		h.cancel()
		ctx, stop := context.WithTimeout(context.Background(), 2*time.Second)
		defer stop()
		err = h.srv.Shutdown(ctx)
		close(h.done)
	})
	return err
}

// Resources says what the host enforces of the app resource: its CSP
// header and the permissions asked for (none is granted).
func (h *Host) Resources() (csp string, permissions []string) {
	return h.csp, h.bridge.res.Permissions
}

func random() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func resourceIndex(rs []model.Resource, uri string) int {
	for i := range rs {
		if rs[i].URI == uri {
			return i
		}
	}
	return -1
}

// AppCSP is the content security policy an app is served under: nothing
// but its inline code and what its resource declares (well-formed origins
// only), in a sandbox of scripts and forms, framed only by its host page.
func AppCSP(r model.AppResource) string {
	list := func(fixed string, directive string) string {
		s := strings.TrimSpace(fixed + " " + strings.Join(r.CSP[directive], " "))
		if s == "" {
			return "'none'"
		}
		return s
	}
	res := "resourceDomains"
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + list("'unsafe-inline'", res),
		"style-src " + list("'unsafe-inline'", res),
		"img-src " + list("data: blob:", res),
		"font-src " + list("data:", res),
		"media-src " + list("data: blob:", res),
		"connect-src " + list("", "connectDomains"),
		"frame-src " + list("", "frameDomains"),
		"base-uri " + list("", "baseUriDomains"),
		"form-action 'none'",
		"frame-ancestors 'self'",
		"sandbox allow-scripts allow-forms",
	}, "; ")
}

// secure sets the headers every response of the host carries.
func secure(w http.ResponseWriter, csp string) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Cross-Origin-Resource-Policy", "same-origin")
}

func (h *Host) app(w http.ResponseWriter, _ *http.Request) {
	secure(w, h.csp)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(h.html)
}

// rpc takes one message the host page relayed from the app and answers
// with what the page is to post back to it, and what it is to show. Only
// the host page may ask: the request must come from the host's own origin,
// which the app's sandbox (an opaque origin) never has.
func (h *Host) rpc(w http.ResponseWriter, r *http.Request) {
	secure(w, "default-src 'none'")
	if r.Header.Get("Origin") != strings.TrimSuffix(h.url, "/"+h.token+"/") || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	body, err := readBody(w, r)
	var out reply
	if err != nil {
		out = h.bridge.refuse(body, err.Error())
	} else {
		out = h.bridge.handle(r.Context(), body)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// MaxReport bounds one CSP violation report the browser sends.
const MaxReport = 64 << 10

// violation takes the browser's report of what the app's CSP blocked and
// keeps it as a frame of the app's, and shows it: a fetch, a script or a
// frame outside the declared origins is refused and shown. The report
// comes from the app's sandbox, whose origin is opaque: only the path's
// secret, the size bound and the app's message rate admit it.
func (h *Host) violation(w http.ResponseWriter, r *http.Request) {
	secure(w, "default-src 'none'")
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxReport))
	if err != nil {
		http.Error(w, "too large", http.StatusRequestEntityTooLarge)
		return
	}
	h.bridge.violation(body)
	w.WriteHeader(http.StatusNoContent)
}

// readBody reads at most MaxMessage bytes of the request; over it, the
// start read and an error.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	buf, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return buf, fmt.Errorf("message over the host's %d bytes", MaxMessage)
	}
	return buf, err
}
