package probe

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// Options say how to audit.
type Options struct {
	// Handshake is the client the audit speaks as: its clientInfo,
	// capabilities, HTTP headers and the revision asked for.
	Handshake model.Handshake
	// Guard holds the process groups of stdio servers (nil: none).
	Guard *procguard.Guard
	// Probe bounds each probe (DefaultProbe when 0).
	Probe time.Duration
	// Grace is how long a stdio server has to exit once its stdin is
	// closed (DefaultGrace when 0).
	Grace time.Duration
	// Items bounds how many resources are read, prompts got and
	// completions asked (DefaultItems when 0).
	Items int
	// Calls are the tools to call, with their arguments: no other tool is.
	Calls []Call
	// HTTPAuth wraps the HTTP transport of a remote server, as a session's
	// (the stored OAuth token); nil sends the config's headers alone.
	HTTPAuth func(spec config.ServerSpec, next http.RoundTripper) http.RoundTripper
	// Limits bound what is read, as for a session: a stdout line (Line),
	// an HTTP body (Body), an event (Event), a listing's pages together
	// (Listing). Zero fields take loader.DefaultLimits.
	Limits loader.Limits
}

// A Call is a tool the user asked the audit to call.
type Call struct {
	Name string
	Args json.RawMessage
}

// Defaults of Options.
const (
	DefaultProbe = 10 * time.Second
	DefaultGrace = 2 * time.Second
	DefaultItems = 25
	// maxPages bounds a listing's pages.
	maxPages = 100
)

// unknownRevision is a revision no server supports.
const unknownRevision = "1999-01-01"

func (o Options) withDefaults() Options {
	if o.Probe <= 0 {
		o.Probe = DefaultProbe
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.Items <= 0 {
		o.Items = DefaultItems
	}
	o.Limits = o.Limits.WithDefaults()
	if o.Handshake.ProtocolVersion == "" {
		o.Handshake = model.NeutralHandshake()
	}
	return o
}

// An auditor is the state of one server's audit.
type auditor struct {
	o    Options
	spec config.ServerSpec
	t    *tape
	fs   *findings
	c    *client
	res  *audit.Result
	caps map[string]json.RawMessage // the capabilities the server declared
	// stateless says the session is on a stateless revision (2026-07-28:
	// server/discover answered), where ping and logging/setLevel are gone
	// and results carry cache hints.
	stateless bool
	// outputSchemas are the listed tools' valid outputSchemas, by name.
	outputSchemas map[string]json.RawMessage
	// supported are the versions server/discover listed.
	supported []string
	// stdio is the stdio peer, httpp the HTTP one: one of them is set.
	stdio *stdioPeer
	httpp *httpPeer
}

// Run audits the server of spec and returns what it found. ctx ends the
// audit early; every probe is bounded by Options.Probe besides.
func Run(ctx context.Context, spec config.ServerSpec, o Options) audit.Result {
	o = o.withDefaults()
	start := time.Now()
	a := &auditor{o: o, spec: spec, t: &tape{server: spec.Label}, fs: newFindings(), outputSchemas: map[string]json.RawMessage{},
		res: &audit.Result{Server: spec.Label, Line: spec.Line, Col: spec.Col, Asked: o.Handshake.ProtocolVersion}}
	a.run(ctx)
	a.fs.result(a.res)
	a.res.Frames = a.t.all()
	a.res.Elapsed = time.Since(start)
	mask(a.res, config.NewRedactor([]config.ServerSpec{spec}))
	clipTexts(a.res) // record.go
	return *a.res
}

// mask masks the config's secrets (its env and header values, a token in
// its URL) wherever the server may have quoted them: the messages and
// every frame.
func mask(r *audit.Result, red *model.Redactor) {
	if red.Longest() == 0 {
		return
	}
	maskFrames := func(fs []mcpsession.Frame) {
		for i := range fs {
			fs[i].Bytes = []byte(red.Text(string(fs[i].Bytes)))
		}
	}
	maskFrames(r.Frames)
	for i := range r.Findings {
		f := &r.Findings[i]
		f.Message, f.Subject = red.Text(f.Message), red.Text(f.Subject)
		maskFrames(f.Evidence)
	}
	r.ServerInfo = red.Text(r.ServerInfo)
}

func (a *auditor) run(ctx context.Context) {
	switch a.spec.Transport {
	case config.TransportHTTP:
		a.res.Transport = "http"
		a.httpp = a.newHTTPPeer(a.t)
		a.c = &client{p: a.httpp, t: a.t}
	case config.TransportSSE:
		a.res.Transport = "sse"
		for _, c := range audit.Checks() {
			a.fs.skip(c.ID, "the audit speaks stdio and streamable HTTP, not the deprecated HTTP+SSE transport of 2024-11-05")
		}
		return
	default:
		a.res.Transport = "stdio"
		p, err := startStdio(a.spec, a.o.Guard, a.t, a.o.Limits.Line)
		if err != nil {
			a.fs.add("lifecycle.initialize", "", "the server did not start: "+err.Error(), nil)
			return
		}
		a.stdio = p
		defer p.stop()
		a.c = &client{p: p, t: a.t}
	}
	if !a.initialize(ctx) {
		a.stdinClose()
		return
	}
	a.lifecycle(ctx)
	a.listings(ctx)
	a.calls(ctx)
	if a.httpp != nil {
		a.httpChecks(ctx)
	}
	a.messages()
	a.notifications()
	a.stdoutNoise()
	a.stdinClose()
	if a.stdio == nil {
		a.unknownVersion(ctx)
	} else {
		a.unknownVersionStdio(ctx)
	}
	a.skipOthers()
}

// headers are the HTTP headers every request carries: the handshake's,
// then the config's, which win.
func (a *auditor) headers() http.Header {
	h := http.Header{}
	for _, kv := range a.o.Handshake.Headers {
		h.Set(kv.Name, kv.Value)
	}
	for _, kv := range a.spec.Headers {
		h.Set(kv.Name, kv.Value)
	}
	return h
}

// probeCtx is one probe's deadline.
func (a *auditor) probeCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, a.o.Probe)
}

// skipOthers marks the checks of the other transport as not applying.
func (a *auditor) skipOthers() {
	for _, c := range audit.Checks() {
		if c.Transport != "" && c.Transport != a.res.Transport {
			a.fs.skip(c.ID, "a "+c.Transport+" check")
		}
	}
}
