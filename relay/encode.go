package relay

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
	"unsafe"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/recording"
)

// A Source says what a recording is of: a stdio server's command, or an
// HTTP server's upstream URL and the address the relay listens on.
type Source struct {
	Server   string
	Command  []string
	Upstream string
	Listen   string
}

// HeaderLine returns the first line of a recording of src (and the first a
// feed reader gets), its secrets masked:
//
//	{"format":"mcplens-tap","version":1,"server":"alpha","t":"...","command":["node","srv.js"]}
func HeaderLine(src Source, t time.Time) []byte {
	h := recording.Header{Format: recording.Format, Version: recording.Version, Server: src.Server,
		T: t.UTC().Format(time.RFC3339Nano), Command: model.RedactArgs(src.Command), Listen: src.Listen}
	if src.Upstream != "" {
		h.Upstream = model.RedactURL(src.Upstream)
	}
	b, _ := json.Marshal(h)
	return append(b, '\n')
}

// A frame is one frame as the copier assembled it.
type frame struct {
	t     time.Time
	dir   recording.Dir
	data  []byte // what was kept of it
	size  int    // its size; more than len(data) when cut
	body  bool   // whether there is one (an HTTP exchange may have none)
	event string // the server-sent event's name
	meta  *recording.HTTP
}

// CutKeep is how much of a frame longer than the frame cap is recorded:
// such a frame is recorded as text (being cut, it is not JSON), and its
// beginning says what it was. Masking and escaping all the cap holds
// would cost a relay passing 1 MB frames more than passing them.
const CutKeep = 1 << 10

// cutMargin is how far past CutKeep a cut frame is masked.
const cutMargin = 256

// An encoder writes frames as JSONL lines with their secrets masked. It
// encodes into one buffer, reused line after line.
type encoder struct {
	server []byte // the label, as a JSON string
	red    *model.Redactor
	buf    []byte
}

func newEncoder(server string, secrets []string) *encoder {
	label, _ := json.Marshal(server)
	return &encoder{server: label, red: model.NewRedactor(secrets...)}
}

// frame encodes f:
//
//	{"t":"...","server":"alpha","dir":"c2s","frame":{"jsonrpc":"2.0",...}}
//
// with "text" in place of "frame" when the frame is not JSON (or was cut,
// then with "cut": its full size), "sse" naming a server-sent event, and
// "http" holding an HTTP exchange's method, URL, status and headers.
func (e *encoder) frame(f frame) []byte {
	b := e.start(f.t)
	b = append(b, `,"dir":"`...)
	b = append(b, f.dir...)
	b = append(b, '"')
	if f.meta != nil {
		b = append(b, `,"http":`...)
		b = appendJSON(b, masked(f.meta))
	}
	if f.event != "" {
		b = append(b, `,"sse":`...)
		b = appendJSON(b, f.event)
	}
	if f.body {
		var text []byte
		if f.size <= len(f.data) || len(f.data) <= CutKeep {
			text = e.mask(f.data)
		}
		switch {
		case f.size > len(f.data):
			if len(f.data) > CutKeep {
				// Masked a little past the cut, so that a secret the cut
				// would halve is masked whole.
				text = e.mask(f.data[:min(len(f.data), CutKeep+cutMargin)])
				text = text[:min(len(text), CutKeep)]
			}
			b = append(b, `,"cut":`...)
			b = strconv.AppendInt(b, int64(f.size), 10)
			b = append(b, `,"text":`...)
			b = appendString(b, text)
		case json.Valid(text):
			b = append(b, `,"frame":`...)
			b = appendValue(b, text)
		default:
			b = append(b, `,"text":`...)
			b = appendString(b, text)
		}
	}
	e.buf = append(b, "}\n"...)
	return e.buf
}

// dropped encodes the notice that n chunks of bytes were left out.
func (e *encoder) dropped(t time.Time, n int64) []byte {
	b := e.start(t)
	b = append(b, `,"dropped":`...)
	b = strconv.AppendInt(b, n, 10)
	e.buf = append(b, "}\n"...)
	return e.buf
}

// start begins a line in e's buffer; the line is e's until the next one.
func (e *encoder) start(t time.Time) []byte {
	b := e.buf[:0]
	if cap(b) > 2*DefaultFrameCap+1024 {
		b = nil // a frame of a larger cap's: let it go
	}
	b = append(b, `{"t":"`...)
	b = t.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","server":`...)
	return append(b, e.server...)
}

// mask returns data with its secrets masked: the values the copier was
// given or learned and the shapes of secrets (model.Redactor.Values), and
// the credentials of OAuth bodies (maskOAuth). Credential syntax
// (model.RedactText) is left to the header masking: its URL rule would
// swallow a JSON line whole.
func (e *encoder) mask(data []byte) []byte {
	data = maskOAuth(data)
	// The string shares data's bytes (a frame may be 256 KiB): Values does
	// not keep it, and returns it unchanged or a new string.
	s := unsafe.String(unsafe.SliceData(data), len(data))
	if masked := e.red.Values(s); unsafe.StringData(masked) != unsafe.StringData(s) {
		return []byte(masked)
	}
	return data
}

// learn adds the secrets of m's headers (model.HeaderSecrets: a header a
// config declared, a credential, a cookie) to those masked in every
// frame after: a server that echoes them in a body has them masked.
func (e *encoder) learn(m *recording.HTTP) {
	if m == nil {
		return
	}
	var vs []string
	for name, values := range m.Headers {
		for _, v := range values {
			vs = append(vs, model.HeaderSecrets(name, v)...)
		}
	}
	e.red = e.red.With(vs...)
}

// masked returns m with its headers' values masked as model.MaskHeader
// masks them, and the secrets of its URL.
func masked(m *recording.HTTP) *recording.HTTP {
	out := *m
	if m.URL != "" {
		out.URL = model.RedactURL(m.URL)
	}
	out.Headers = make(http.Header, len(m.Headers))
	for name, values := range m.Headers {
		vs := make([]string, len(values))
		for i, v := range values {
			vs[i] = model.MaskHeader(name, v)
		}
		out.Headers[name] = vs
	}
	return &out
}

// appendJSON appends v as JSON; encoding/json escapes <, > and & in
// strings, which reads back the same.
func appendJSON(b []byte, v any) []byte {
	j, _ := json.Marshal(v)
	return append(b, j...)
}

// appendValue appends the valid JSON value v on one line.
func appendValue(b []byte, v []byte) []byte {
	if bytes.IndexByte(v, '\n') >= 0 || bytes.IndexByte(v, '\r') >= 0 {
		var c bytes.Buffer
		if json.Compact(&c, v) == nil {
			return append(b, c.Bytes()...)
		}
	}
	return append(b, v...)
}
