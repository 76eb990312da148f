package relay

import (
	"bytes"
	"regexp"

	"github.com/mcplens/mcplens/model"
)

// OAuth bodies cross a relay when the MCP server is its own authorization
// server (its /token and /register on the same origin): their credentials
// are masked like a secret header's value, the rest of the body kept.
var (
	// oauthJSON is a JSON member holding a credential: a token response,
	// a registration response.
	oauthJSON = regexp.MustCompile(`("(?:access_token|refresh_token|id_token|client_secret|registration_access_token|code_verifier)"\s*:\s*")((?:[^"\\]|\\.)*)(")`)
	// oauthForm is a form field holding one: a token request.
	oauthForm = regexp.MustCompile(`(^|&)((?:code|code_verifier|refresh_token|client_secret|client_assertion|access_token|password|subject_token)=)([^&]*)`)
	// oauthWords are the names a body must mention for the patterns to run.
	oauthWords = [][]byte{[]byte("_token"), []byte("client_secret"), []byte("code")}
)

// maskOAuth returns data with the credentials of an OAuth body masked.
func maskOAuth(data []byte) []byte {
	mentions := false
	for _, w := range oauthWords {
		mentions = mentions || bytes.Contains(data, w)
	}
	if !mentions {
		return data
	}
	out := oauthJSON.ReplaceAllFunc(data, func(m []byte) []byte {
		sub := oauthJSON.FindSubmatch(m)
		return append(append(append([]byte{}, sub[1]...), model.MaskValue(string(sub[2]))...), sub[3]...)
	})
	if len(out) > 0 && out[0] != '{' && out[0] != '[' && bytes.IndexByte(out, '=') > 0 {
		out = oauthForm.ReplaceAllFunc(out, func(m []byte) []byte {
			sub := oauthForm.FindSubmatch(m)
			return append(append(append([]byte{}, sub[1]...), sub[2]...), model.MaskValue(string(sub[3]))...)
		})
	}
	return out
}
