package oauthtest

import (
	"net/http"
	"net/http/httptest"
)

// Move moves the MCP server to another authorization server: its
// protected resource metadata names the new one from now on, every token
// the old one issued is refused (a 401 whose challenge leads there), and
// the new one knows none of the clients the old one registered (a request
// carrying one counts in Stale and is refused). Pre-registered clients
// stay valid at both.
func (s *Server) Move(t Cleaner) {
	mux := http.NewServeMux()
	s.serveAS(mux)
	moved := httptest.NewServer(mux)
	t.Cleanup(moved.Close)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.moved = moved
	s.stale = map[string]bool{}
	for id := range s.clients {
		if _, pre := s.cfg.Clients[id]; !pre {
			s.stale[id] = true
			delete(s.clients, id)
		}
	}
	clear(s.access)
	clear(s.refresh)
}

// staleClient reports (and counts) a client the old authorization server
// registered, seen by the new one; s.mu is held.
func (s *Server) staleClient(id string) bool {
	if s.stale[id] {
		s.Stale++
		s.Log = append(s.Log, "refused: a client of the old authorization server: "+id)
		return true
	}
	return false
}

// Counts returns, under the server's lock, how many authorization
// requests it saw, how many requests carried a client of the old
// authorization server, and the application_type of the last registration.
func (s *Server) Counts() (authorizations, stale int, applicationType string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Authorizations, s.Stale, s.ApplicationType
}

// SetMetadataIssuer makes the authorization server's metadata name issuer
// (Config.MetadataIssuer, once the server has an address).
func (s *Server) SetMetadataIssuer(issuer string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.MetadataIssuer = issuer
}

func (s *Server) metadataIssuer() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.MetadataIssuer
}
