package oauth

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mcplens/mcplens/model"
)

// legacyIssuer reads the issuer of the authorization server metadata at u
// and returns the body the SDK is to read. A 2025-03-26 server (no
// protected resource metadata) is its own authorization server, its
// metadata at its origin's /.well-known/oauth-authorization-server; that
// revision asked no issuer check, and servers written for it name an
// issuer under their origin (https://mcp.example/oauth), which RFC 8414
// would refuse. As the reference SDKs do, such a server's metadata is
// taken with its issuer read as the origin, and the iss of its
// authorization response (the issuer it named) as the origin too. Any
// other issuer, and every issuer once protected resource metadata was
// read (2025-06-18 and later), is left for the SDK to hold to RFC 8414
// and RFC 9207.
func (s *stepper) legacyIssuer(u *url.URL, body []byte) []byte {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return body // the SDK reports malformed metadata
	}
	iss, _ := m["issuer"].(string)
	origin := u.Scheme + "://" + u.Host
	s.mu.Lock()
	defer s.mu.Unlock()
	s.issuer = iss
	if s.resource || u.Path != "/.well-known/oauth-authorization-server" || iss == origin ||
		!strings.HasPrefix(iss, origin+"/") {
		return body
	}
	m["issuer"] = origin
	out, err := json.Marshal(m)
	if err != nil {
		return body
	}
	s.issuer, s.legacyIss = origin, iss
	return out
}

// issuerSeen is the issuer of the authorization server the flow talks to,
// "" when it has no metadata.
func (s *stepper) issuerSeen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issuer
}

// legacyIss reads the iss of an authorization response as legacyIssuer
// read the metadata's issuer.
func (s *stepper) legacyResult(r *auth.AuthorizationResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r != nil && s.legacyIss != "" && r.Iss == s.legacyIss {
		r.Iss = s.issuer
	}
}

// maxClientMetadataURL bounds a client ID metadata document's URL: it is
// sent as the client_id of every request of the flow.
const maxClientMetadataURL = 2048

// CheckClientMetadataURL refuses what cannot be a client ID metadata
// document's URL (draft-ietf-oauth-client-id-metadata-document 3): one
// that is not https, has no host or no path past the root, carries user
// information, a fragment, or dot segments, or is longer than 2048 bytes.
// "" (none) passes.
func CheckClientMetadataURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	switch {
	case len(raw) > maxClientMetadataURL:
		return fmt.Errorf("longer than %d bytes", maxClientMetadataURL)
	case err != nil:
		return fmt.Errorf("not a URL: %s", clip(raw))
	case u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("%s: not an https URL with a host", clip(raw))
	case u.Path == "" || u.Path == "/":
		return fmt.Errorf("%s: no path (the document is a file under the host)", clip(raw))
	case u.User != nil || u.Fragment != "" || strings.HasSuffix(raw, "#"):
		return fmt.Errorf("%s: user information or a fragment", clip(model.RedactURL(raw)))
	case slices.ContainsFunc(strings.Split(u.Path, "/"), func(seg string) bool { return seg == "." || seg == ".." }):
		return fmt.Errorf("%s: a dot segment in its path", clip(raw))
	}
	return nil
}
