package oauth

import (
	"io"
	"net/netip"
	"strings"
	"testing"
)

func TestReach(t *testing.T) {
	for _, tc := range []struct {
		server     string // the server's address
		target     string // an address the flow would connect to
		allowed    bool
		targetKind netClass
	}{
		{"127.0.0.1", "127.0.0.1", true, classLoopback},
		{"127.0.0.1", "10.1.2.3", true, classPrivate},
		{"127.0.0.1", "93.184.216.34", true, classPublic},
		{"127.0.0.1", "169.254.169.254", false, classNever},
		{"10.0.0.5", "10.0.0.6", true, classPrivate},
		{"10.0.0.5", "fd00::1", true, classPrivate},
		{"10.0.0.5", "127.0.0.1", false, classLoopback},
		{"10.0.0.5", "8.8.8.8", true, classPublic},
		{"93.184.216.34", "127.0.0.1", false, classLoopback},
		{"93.184.216.34", "::1", false, classLoopback},
		{"93.184.216.34", "::ffff:127.0.0.1", false, classLoopback},
		{"93.184.216.34", "192.168.1.1", false, classPrivate},
		{"93.184.216.34", "172.16.0.1", false, classPrivate},
		{"93.184.216.34", "100.64.0.1", false, classPrivate},
		{"93.184.216.34", "fc00::1", false, classPrivate},
		{"93.184.216.34", "169.254.169.254", false, classNever},
		{"93.184.216.34", "fe80::1", false, classNever},
		{"93.184.216.34", "0.0.0.0", false, classNever},
		{"93.184.216.34", "::", false, classNever},
		{"93.184.216.34", "224.0.0.1", false, classNever},
		{"93.184.216.34", "2606:4700::1111", true, classPublic},
		{"0.0.0.0", "127.0.0.1", true, classLoopback},
		{"fe80::1", "10.0.0.1", true, classPrivate},
	} {
		r := serverReach(netip.MustParseAddr(tc.server))
		c := classOf(netip.MustParseAddr(tc.target))
		if c != tc.targetKind || r.allows(c) != tc.allowed {
			t.Errorf("server %s, target %s: class %v, allowed %v; want %v, %v", tc.server, tc.target, c, r.allows(c), tc.targetKind, tc.allowed)
		}
	}
}

func TestCappedBody(t *testing.T) {
	for _, tc := range []struct {
		n       int
		wantErr bool
	}{{0, false}, {maxBody, false}, {maxBody + 1, true}, {4 * maxBody, true}} {
		b := &cappedBody{r: io.NopCloser(strings.NewReader(strings.Repeat("x", tc.n))), left: maxBody}
		got, err := io.ReadAll(b)
		if (err != nil) != tc.wantErr || len(got) > maxBody {
			t.Errorf("reading %d bytes: %d read, %v; want an error %v and at most %d", tc.n, len(got), err, tc.wantErr, maxBody)
		}
	}
}
