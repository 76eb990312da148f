package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcplens/mcplens/internal/safefile"
)

// storeMark is the "mcplens" member of every token file mcplens writes:
// safefile replaces only a file that has it.
const storeMark = "oauth tokens"

// An Entry is what one login left: the token, and the client and token
// endpoint that refresh it. It is keyed by the server's URL and the
// config's client (Client: the pre-registered client ID the config names,
// "" when mcplens registered itself or was given one by flags).
type Entry struct {
	Server string `json:"server"`
	Client string `json:"client,omitempty"`

	// Registration says how the client was registered: "metadata
	// document", "pre-registered" or "dynamic".
	Registration string           `json:"registration,omitempty"`
	Issuer       string           `json:"issuer,omitempty"`
	ClientID     string           `json:"client_id"`
	ClientSecret string           `json:"client_secret,omitempty"`
	TokenURL     string           `json:"token_url"`
	AuthStyle    oauth2.AuthStyle `json:"auth_style,omitempty"`
	Scopes       []string         `json:"scopes,omitempty"`
	// Wanted are scopes a server asked for since (a step-up): the next
	// login asks for them too.
	Wanted []string      `json:"wanted,omitempty"`
	Token  *oauth2.Token `json:"token"`
	Saved  time.Time     `json:"saved"`
}

// config is the oauth2 client that refreshes e's token.
func (e *Entry) config() *oauth2.Config {
	return &oauth2.Config{
		ClientID: e.ClientID, ClientSecret: e.ClientSecret, Scopes: e.Scopes,
		Endpoint: oauth2.Endpoint{TokenURL: e.TokenURL, AuthStyle: e.AuthStyle},
	}
}

// A Store keeps tokens in one JSON file, 0600, written whole through a
// temporary file (internal/safefile); the folders it creates are 0700,
// those that exist are left as they are. An OS keyring was not used: the
// Go keyring libraries either need cgo or a running D-Bus secret service,
// which neither CI nor a headless machine has.
type Store struct {
	path string
	mu   sync.Mutex // one read-modify-write at a time in this process
}

// NewStore returns the store whose file is path.
func NewStore(path string) *Store { return &Store{path: path} }

// DefaultStore is the store under the user's config folder:
// $XDG_CONFIG_HOME/mcplens/oauth-tokens.json (~/.config/... by default).
func DefaultStore() (*Store, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("finding where to keep tokens: %w", err)
	}
	return NewStore(filepath.Join(dir, "mcplens", "oauth-tokens.json")), nil
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

type storeFile struct {
	Mark    string   `json:"mcplens"`
	Entries []*Entry `json:"entries"`
}

// read returns every entry; no file is no entry.
func (s *Store) read() ([]*Entry, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading tokens: %w", err)
	}
	var f storeFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("reading tokens from %s: %v", s.path, err)
	}
	return f.Entries, nil
}

// write replaces the file with entries.
func (s *Store) write(entries []*Entry) error {
	// Missing folders are made 0700; a folder that exists is not
	// mcplens's to change (a shared 1777 one stays so): the file is 0600.
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("keeping tokens: %w", err)
	}
	data, err := json.MarshalIndent(storeFile{Mark: storeMark, Entries: entries}, "", "  ")
	if err != nil {
		return err
	}
	mine := func(b []byte) bool {
		var f storeFile
		return json.Unmarshal(b, &f) == nil && f.Mark == storeMark
	}
	if err := safefile.Write(s.path, append(data, '\n'), safefile.Options{Mine: mine, Perm: 0o600}); err != nil {
		return fmt.Errorf("keeping tokens: %w", err)
	}
	return os.Chmod(s.path, 0o600) // a file replaced keeps its mode: this one may not
}

// Get returns the entry of server and client, or nil.
func (s *Store) Get(server, client string) (*Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	entries, err := s.read()
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Server == server && e.Client == client {
			return e, nil
		}
	}
	return nil, nil
}

// Put saves e, replacing the entry of its server and client.
func (s *Store) Put(e *Entry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	entries, err := s.read()
	if err != nil {
		return err
	}
	e.Saved = time.Now().UTC()
	entries = slices.DeleteFunc(entries, func(o *Entry) bool { return o.Server == e.Server && o.Client == e.Client })
	return s.write(append(entries, e))
}

// Delete removes the entries whose server is one of servers (every entry
// when servers is nil) and returns how many it removed.
func (s *Store) Delete(servers []string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	entries, err := s.read()
	if err != nil || len(entries) == 0 {
		return 0, err
	}
	kept := slices.DeleteFunc(slices.Clone(entries), func(e *Entry) bool {
		return servers == nil || slices.Contains(servers, e.Server)
	})
	if len(kept) == len(entries) {
		return 0, nil
	}
	return len(entries) - len(kept), s.write(kept)
}
