package config

import (
	"fmt"
	"strings"
)

// An OAuth is what a server's config says of the OAuth client a remote
// server is authorized with: the client's own "oauth" object (Claude
// Code's and Gemini CLI's) or "auth" (Cursor's). A ClientID makes the
// client pre-registered; without one, mcplens registers itself.
type OAuth struct {
	// ClientID and ClientSecret are a pre-registered client (Claude Code
	// "clientId", Gemini CLI "clientId"/"clientSecret", Cursor
	// "CLIENT_ID"/"CLIENT_SECRET"). ClientSecret is masked like any secret.
	ClientID, ClientSecret string
	// Scopes, when set, are the scopes asked for instead of those the
	// server advertises (Claude Code's space-separated "scopes", Gemini
	// CLI's and Cursor's array).
	Scopes []string
	// CallbackPort is the port of the loopback redirect, for a client
	// registered with a fixed redirect URI (Claude Code "callbackPort",
	// or Gemini CLI's "redirectUri" port); 0 picks a free one.
	CallbackPort int
}

// A rawOAuth is an oauth object as the config wrote it.
type rawOAuth struct {
	clientID, clientSecret str
	scopes                 []str
	port                   int
}

// oauthKeys maps each client's spelling of an oauth member to what it is.
var oauthKeys = map[string]string{
	"clientId": "id", "CLIENT_ID": "id", "client_id": "id",
	"clientSecret": "secret", "CLIENT_SECRET": "secret", "client_secret": "secret",
	"scopes": "scopes", "callbackPort": "port", "redirectUri": "redirect",
}

// oauth reads a server's "oauth" or "auth" object. Members mcplens does
// not apply (Gemini CLI's authorizationUrl, Claude Code's
// authServerMetadataUrl, ...) are findings, not errors.
func (r *reader) oauth(raw *rawServer, m member) error {
	if m.val.kind == nullNode {
		return nil
	}
	if m.val.kind != objectNode {
		return r.d.errorAt(m.val.off, fmt.Sprintf("server %q: %s is %s, want an object", raw.label, m.key, m.val.describe()))
	}
	o := &rawOAuth{}
	for _, f := range m.val.members {
		var err error
		switch oauthKeys[f.key] {
		case "id":
			o.clientID, err = r.str(raw.label, f)
		case "secret":
			o.clientSecret, err = r.str(raw.label, f)
		case "scopes":
			if f.val.kind == stringNode { // Claude Code: one space-separated string
				for _, s := range strings.Fields(f.val.text) {
					o.scopes = append(o.scopes, str{s: s, off: f.val.off, set: true})
				}
				break
			}
			o.scopes, err = r.strs(raw.label, f)
		case "port":
			var d float64
			if f.val.kind == numberNode {
				_, err = fmt.Sscan(f.val.text, &d)
			}
			if f.val.kind != numberNode || err != nil || d < 1 || d > 65535 || d != float64(int(d)) {
				return r.d.errorAt(f.val.off, fmt.Sprintf("server %q: %s.%s is %s, want a port number", raw.label, m.key, f.key, f.val.describe()))
			}
			o.port = int(d)
		case "redirect":
			var s str
			if s, err = r.str(raw.label, f); err == nil && s.set {
				o.port = loopbackPort(s.s)
			}
		default:
			if f.key != "enabled" {
				raw.notes = append(raw.notes, fmt.Sprintf("%s: %s.%s: mcplens does not apply it (it discovers the authorization server itself)", r.d.at(f.off), m.key, f.key))
			}
		}
		if err != nil {
			return err
		}
	}
	raw.oauth = o
	return nil
}

// loopbackPort is the port of a redirect URI on the loopback interface,
// or 0.
func loopbackPort(uri string) int {
	var port int
	for _, host := range []string{"http://127.0.0.1:", "http://localhost:"} {
		if rest, ok := strings.CutPrefix(uri, host); ok {
			fmt.Sscanf(rest, "%d", &port)
		}
	}
	return port
}

// buildOAuth turns what an oauth object said into spec.OAuth, its strings
// expanded (a client secret written out in the file is masked all the
// same: see oauthSecret).
func buildOAuth(spec *ServerSpec, raw *rawServer, expand func(string, str) string) {
	spec.Findings = append(spec.Findings, raw.notes...)
	o := raw.oauth
	if o == nil {
		return
	}
	spec.OAuth = &OAuth{CallbackPort: o.port}
	if o.clientID.set {
		spec.OAuth.ClientID = expand("oauth clientId", o.clientID)
	}
	if o.clientSecret.set {
		spec.OAuth.ClientSecret = expand("oauth clientSecret", o.clientSecret)
	}
	for _, s := range o.scopes {
		spec.OAuth.Scopes = append(spec.OAuth.Scopes, expand("oauth scopes", s))
	}
}

// oauthSecret is the client secret of spec's oauth, to be masked wherever
// it appears, whether a variable gave it or the file spelled it out.
func oauthSecret(spec *ServerSpec) []string {
	if spec.OAuth == nil || spec.OAuth.ClientSecret == "" {
		return nil
	}
	return []string{spec.OAuth.ClientSecret}
}
