package relay

import (
	"strings"
	"testing"
)

func TestMaskOAuth(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"access_token":"at-123","token_type":"Bearer","refresh_token":"rt-\"456","expires_in":3600}`,
			`{"access_token":"****","token_type":"Bearer","refresh_token":"****","expires_in":3600}`},
		{`{"client_id":"dyn-1","client_secret":"shh","redirect_uris":["http://127.0.0.1:5/callback"]}`,
			`{"client_id":"dyn-1","client_secret":"****","redirect_uris":["http://127.0.0.1:5/callback"]}`},
		{`grant_type=authorization_code&code=abc&code_verifier=xyz&redirect_uri=http%3A%2F%2F127.0.0.1&client_id=c&client_secret=s`,
			`grant_type=authorization_code&code=****&code_verifier=****&redirect_uri=http%3A%2F%2F127.0.0.1&client_id=c&client_secret=****`},
		{`grant_type=refresh_token&refresh_token=rt-1&resource=https%3A%2F%2Fx`,
			`grant_type=refresh_token&refresh_token=****&resource=https%3A%2F%2Fx`},
		{`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"barcode","arguments":{"code":"kept"}}}`,
			`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"barcode","arguments":{"code":"kept"}}}`},
	} {
		if got := string(maskOAuth([]byte(tc.in))); got != tc.want {
			t.Errorf("maskOAuth(%q) =\n%q, want\n%q", tc.in, got, tc.want)
		}
	}
}

// A recording of a token exchange through the relay keeps no credential.
func TestEncoderMasksTokenBodies(t *testing.T) {
	e := newEncoder("srv", nil)
	got := string(e.mask([]byte(`{"access_token":"at-SECRET","refresh_token":"rt-SECRET"}`)))
	if strings.Contains(got, "SECRET") {
		t.Errorf("mask = %s, want the tokens masked", got)
	}
}
