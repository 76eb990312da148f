package oauthtest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"time"
)

// The token endpoint: codes exchanged (PKCE checked) and tokens refreshed.

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if s.cfg.StallToken {
		s.logf("stalling a token request")
		io.Copy(io.Discard, r.Body) // read whole, the server notices the client hang up
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		return
	}
	if err := r.ParseForm(); err != nil {
		s.oauthError(w, 400, "invalid_request", err.Error())
		return
	}
	status, body := s.issue(r)
	writeJSON(w, status, body)
}

// issue answers a token request.
func (s *Server) issue(r *http.Request) (int, map[string]any) {
	refuse := func(status int, code, desc string) (int, map[string]any) {
		s.Log = append(s.Log, "refused: "+code+": "+desc)
		return status, map[string]any{"error": code, "error_description": desc}
	}
	id, secret, basic := r.BasicAuth()
	how := "basic"
	if !basic {
		id, secret, how = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret"), "post"
		if secret == "" {
			how = "none"
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.LastTokenAuth = how
	c, known := s.clients[id]
	switch {
	case s.staleClient(id):
		return refuse(401, "invalid_client", "a client of the old authorization server")
	case !known && !(s.cfg.MetadataDocuments && strings.HasPrefix(id, "https://")):
		return refuse(401, "invalid_client", "unknown client "+id)
	case c.secret != "" && secret != c.secret:
		return refuse(401, "invalid_client", "wrong client secret")
	}
	var g grant
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		var ok bool
		code := r.PostForm.Get("code")
		g, ok = s.codes[code]
		delete(s.codes, code)
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		switch {
		case !ok || g.client != id:
			return refuse(400, "invalid_grant", "unknown code")
		case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
			return refuse(400, "invalid_grant", "PKCE verifier does not match the challenge")
		case r.PostForm.Get("resource") != g.resource || r.PostForm.Get("redirect_uri") != g.redirect:
			return refuse(400, "invalid_grant", "resource or redirect_uri differs from the authorization request")
		}
	case "refresh_token":
		var ok bool
		g, ok = s.refresh[r.PostForm.Get("refresh_token")]
		if !ok || g.client != id {
			return refuse(400, "invalid_grant", "unknown refresh token")
		}
		delete(s.refresh, r.PostForm.Get("refresh_token"))
		s.Refreshs++
	default:
		return refuse(400, "unsupported_grant_type", r.PostForm.Get("grant_type"))
	}
	access, refresh := "at-"+rand.Text(), "rt-"+rand.Text()
	s.access[access] = token{expires: time.Now().Add(s.cfg.TokenLifetime), scopes: g.scopes}
	s.refresh[refresh] = g
	return 200, map[string]any{
		"access_token": access, "token_type": "Bearer", "refresh_token": refresh,
		"expires_in": int(s.cfg.TokenLifetime / time.Second), "scope": strings.Join(g.scopes, " "),
	}
}
