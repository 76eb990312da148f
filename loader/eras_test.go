package loader_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// eraHandshake is mcplens's neutral handshake asking for version.
func eraHandshake(version string) model.Handshake {
	h := model.NeutralHandshake()
	h.ProtocolVersion = version
	return h
}

// The handshake frames of the neutral handshake, byte for byte as written.
const (
	discoverFrame = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{` +
		`"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcplens","version":"dev"},` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	initializedFrame = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func initializeAt(id int, version string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":%q,`+
		`"clientInfo":{"name":"mcplens","version":"dev"},"capabilities":{}}}`, id, version)
}

// fallbackAt is the initialize a probe fell back to: the stateless _meta
// beside the handshake's own members (re-encoded, so in key order).
func fallbackAt(id int, version string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"_meta":{`+
		`"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcplens","version":"dev"},`+
		`"io.modelcontextprotocol/protocolVersion":%q},"capabilities":{},"clientInfo":{"name":"mcplens","version":"dev"},"protocolVersion":%q}}`,
		id, version, version)
}

// An eraPeer is a server each era is tried against.
type eraPeer struct {
	name string
	spec func(t testing.TB) config.ServerSpec
	// modern says the peer answers server/discover (mcp-go's servers);
	// the others are handshake-era servers, which answer it -32601
	// (server-everything) or not at all (silent).
	modern bool
}

func eraPeers(t testing.TB) []eraPeer {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(growServer()))
	t.Cleanup(ts.Close)
	return []eraPeer{
		{"mcp-go stdio", func(testing.TB) config.ServerSpec { return demoConfig().Servers[0] }, true},
		{"mcp-go http", func(testing.TB) config.ServerSpec {
			return config.ServerSpec{Label: "grow", Transport: config.TransportHTTP, URL: ts.URL + "/mcp"}
		}, true},
		{"everything stdio", func(t testing.TB) config.ServerSpec {
			return config.ServerSpec{Label: "everything", Command: "node", Args: []string{everythingEntry(t), "stdio"}}
		}, false},
		{"silent stdio", func(testing.TB) config.ServerSpec { return testServer("silent", "silent") }, false},
	}
}

// TestEras: every era against an mcp-go server, server-everything and a
// server that ignores unknown methods: a handshake era writes initialize
// first and never probes; the stateless era probes with server/discover,
// stays stateless with a server that answers it (its listing carrying the
// _meta) and falls back to initialize at 2025-11-25 with one that does not.
// The revision settled on is the Ready event's Protocol.
func TestEras(t *testing.T) {
	for _, era := range model.Eras() {
		for _, peer := range eraPeers(t) {
			t.Run(era.Version+"/"+peer.name, func(t *testing.T) {
				spec := peer.spec(t)
				cfg := &config.Config{Servers: []config.ServerSpec{spec}}
				s := open(t, cfg, loader.Options{Handshake: eraHandshake(era.Version)})
				_, last := settle(t, s, cfg)
				ev := last[spec.Label]
				if era.Version == model.Revision20250618 && peer.name == "silent stdio" {
					// silent answers 2025-11-25 whatever it is asked, which a
					// 2025-06-18 client does not speak.
					if ev.State != mcpsession.Failed || !strings.Contains(ev.Err, `answered protocol "2025-11-25"`) {
						t.Fatalf("event = %+v, want Failed on the revision answered", ev)
					}
					return
				}
				if ev.State != mcpsession.Ready {
					t.Fatalf("event = %+v (stderr %s), want Ready", ev, ev.Stderr)
				}
				var outs []string
				var outAt []time.Time
				for _, f := range s.FrameLog(spec.Label).Frames() {
					// The stream a stateless connection opens goes out
					// beside the listing, in no fixed order.
					if m, _ := method(t, f.Bytes); f.Dir == mcpsession.Out && m != "subscriptions/listen" {
						outs, outAt = append(outs, string(f.Bytes)), append(outAt, f.At)
					}
				}
				if era.Discover && !peer.modern && len(outAt) > 1 {
					// Logged, not asserted: the probe ends on the server's
					// error, or at the era's bound for a server that ignores
					// it (or has not started reading yet).
					t.Logf("probe to fallback: %s (bound %s)", outAt[1].Sub(outAt[0]), era.Probe)
				}
				var want []string
				protocol := era.Version
				switch {
				case !era.Discover:
					want = []string{initializeAt(1, era.Version), initializedFrame}
				case peer.modern:
					want = []string{discoverFrame}
				default:
					want = []string{discoverFrame, fallbackAt(2, era.Initialize), initializedFrame}
					protocol = era.Initialize
				}
				if len(outs) < len(want)+1 {
					t.Fatalf("frames written %q, want %q then tools/list", outs, want)
				}
				for i, w := range want {
					if outs[i] != w {
						t.Errorf("frame %d written\n%s\nwant\n%s", i, outs[i], w)
					}
				}
				list := outs[len(want)]
				stateless := strings.Contains(list, `"_meta":{"io.modelcontextprotocol/clientCapabilities":{}`)
				if !strings.Contains(list, `"method":"tools/list"`) || stateless != (era.Discover && peer.modern) {
					t.Errorf("listing %s: want tools/list, with _meta only on a stateless connection", list)
				}
				if ev.Protocol != protocol {
					t.Errorf("Protocol = %q, want %q", ev.Protocol, protocol)
				}
				how := map[bool]string{true: " via server/discover", false: " via initialize"}[era.Discover && peer.modern]
				if !strings.HasPrefix(ev.Facts.Settled, protocol+how) {
					t.Errorf("settled %q, want it to start %q", ev.Facts.Settled, protocol+how)
				}
			})
		}
	}
}

// versionHTTP is a streamable HTTP server of the handshake era that answers
// initialize with version, whatever it was asked, and lists one tool.
func versionHTTP(t *testing.T, version string) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		var result string
		switch {
		case req.ID == nil:
			w.WriteHeader(http.StatusAccepted)
			return
		case req.Method == "initialize":
			result = fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"v","version":"1"}}`, version)
		case req.Method == "tools/list":
			result = `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, req.ID)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestEraFallback: a client goes on with an older revision than it asked
// for, as the SDKs do, and fails on a newer one, which it does not speak.
func TestEraFallback(t *testing.T) {
	for _, tt := range []struct {
		name, ask, answer string
		ok                bool
	}{
		{"2025-11-25 takes 2025-06-18", model.Revision20251125, model.Revision20250618, true},
		{"2026-07-28 falls back and takes 2025-06-18", model.Revision20260728, model.Revision20250618, true},
		{"2025-06-18 takes 2025-03-26", model.Revision20250618, model.Revision20250326, true},
		{"2025-06-18 refuses 2025-11-25", model.Revision20250618, model.Revision20251125, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := versionHTTP(t, tt.answer)
			cfg := remoteConfig("v", config.TransportHTTP, ts.URL+"/mcp")
			s := open(t, cfg, loader.Options{Handshake: eraHandshake(tt.ask)})
			_, last := settle(t, s, cfg)
			ev := last["v"]
			switch {
			case tt.ok && (ev.State != mcpsession.Ready || ev.Protocol != tt.answer):
				t.Errorf("event = %+v, want Ready on %s", ev, tt.answer)
			case !tt.ok && (ev.State != mcpsession.Failed || !strings.Contains(ev.Err, "does not speak")):
				t.Errorf("event = %+v, want Failed: the client does not speak %s", ev, tt.answer)
			}
			var init []byte
			for _, f := range s.FrameLog("v").Frames() {
				if m, _ := method(t, f.Bytes); m == "initialize" {
					init = f.Bytes
				}
			}
			if want := fmt.Sprintf(`"protocolVersion":%q`, model.EraOf(tt.ask).Initialize); !bytes.Contains(init, []byte(want)) {
				t.Errorf("initialize %s lacks %s", init, want)
			}
		})
	}
}

// BenchmarkConnectEra measures connecting and listing, per era, against an
// mcp-go server over stdio and HTTP, server-everything, and a server that
// ignores unknown methods (what the stateless era's bounded probe costs).
func BenchmarkConnectEra(b *testing.B) {
	for _, era := range model.Eras() {
		for _, peer := range eraPeers(b) {
			b.Run(era.Version+"/"+peer.name, func(b *testing.B) {
				spec := peer.spec(b)
				if era.Version == model.Revision20250618 && peer.name == "silent stdio" {
					b.Skip("silent answers a revision a 2025-06-18 client does not speak")
				}
				cfg := &config.Config{Servers: []config.ServerSpec{spec}}
				for b.Loop() {
					s := loader.Open(cfg, loader.Options{Handshake: eraHandshake(era.Version)})
					awaitReady(b, s, cfg, -1)
					s.Close()
				}
			})
		}
	}
}

// TestStatelessRelists: on a stateless connection the tools/list_changed
// a call causes arrives on the subscriptions/listen stream, and the tools
// are listed again, as on a connection that ran initialize.
func TestStatelessRelists(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(growServer()))
	t.Cleanup(ts.Close)
	cfg := remoteConfig("grow", config.TransportHTTP, ts.URL+"/mcp")
	s := open(t, cfg, loader.Options{Handshake: eraHandshake(model.Revision20260728)})
	if _, last := settle(t, s, cfg); last["grow"].State != mcpsession.Ready || last["grow"].Protocol != model.Revision20260728 {
		t.Fatalf("event = %+v, want Ready on 2026-07-28", last["grow"])
	}
	// The stream is open once the server acknowledged it: a change before
	// that is not the stream's to carry.
	for deadline := time.Now().Add(settleTimeout); !hasFrame(t, s, "grow", "notifications/subscriptions/acknowledged"); {
		if time.Now().After(deadline) {
			t.Fatal("the subscription was never acknowledged")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := s.Call(context.Background(), "grow", "grow", nil); err != nil {
		t.Fatalf("Call: %v", err)
	}
	ev := nextState(t, s, settleTimeout)
	if got, want := toolNames(ev.Tools), []string{"grow", "t1", "t2", "t3"}; ev.State != mcpsession.Ready || !slices.Equal(got, want) {
		t.Errorf("after list_changed: %v %q, want Ready with %q", ev.State, got, want)
	}
	if !hasFrame(t, s, "grow", "subscriptions/listen") {
		t.Error("no subscriptions/listen request in the frame log")
	}
}

// hasFrame reports whether the server's frame log holds a message of the
// method.
func hasFrame(t *testing.T, s *loader.Session, server, m string) bool {
	for _, f := range s.FrameLog(server).Frames() {
		if got, _ := method(t, f.Bytes); got == m {
			return true
		}
	}
	return false
}
