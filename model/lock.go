// The lock file: reading every version, writing the current one.

package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// LockVersion is the version of the lock file format this package writes.
// Older locks are still read (see ParseLock): version 1 held each server's
// command, arguments and URL as written; versions 1 and 2 hashed
// definitions in a canonical form of mcplens's own, with numbers as
// written, where version 3 uses RFC 8785's, and named a server's endpoint
// "transport".
const LockVersion = 3

// A Lock is the approved tool definitions of the servers of one config.
type Lock struct {
	// Version is the version the lock was read as; Marshal writes
	// LockVersion.
	Version int `json:"version"`
	// Servers is keyed by server label.
	Servers map[string]ServerPin `json:"servers"`
}

// NewLock returns an empty lock of the current version.
func NewLock() *Lock {
	return &Lock{Version: LockVersion, Servers: make(map[string]ServerPin)}
}

// ParseLock reads a lock file of the current version or an older one.
//
// A version 1 lock held each server's command, arguments and URL as
// written: its endpoints are read redacted and without a fingerprint, so
// they are not compared. The tool pins of versions 1 and 2 are re-hashed in
// the current canonical form (upgradePin), so they compare with what
// servers advertise now as if the lock had been written by this version.
// Version says what was read until the lock is written again (Outdated).
func ParseLock(data []byte) (*Lock, error) {
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("reading lock: %w", err)
	}
	var (
		l   *Lock
		err error
	)
	switch head.Version {
	case LockVersion:
		l = new(Lock)
		err = json.Unmarshal(data, l)
	case 1, 2:
		l, err = parseOlderLock(data)
	default:
		return nil, fmt.Errorf("reading lock: version %d, want %d (or 1 or 2, which are read and rewritten as %d)", head.Version, LockVersion, LockVersion)
	}
	if err != nil {
		return nil, fmt.Errorf("reading lock: %w", err)
	}
	if l.Servers == nil {
		return nil, errors.New(`reading lock: no "servers" object`)
	}
	for label, sp := range l.Servers {
		for wire, tp := range sp.Tools {
			if _, err := hex.DecodeString(tp.SHA256); err != nil || len(tp.SHA256) != sha256.Size*2 {
				return nil, fmt.Errorf("reading lock: server %q, tool %q: sha256 is %q, want 64 hex digits", label, wire, tp.SHA256)
			}
			if l.Version < LockVersion {
				sp.Tools[wire] = upgradePin(tp)
			}
		}
	}
	return l, nil
}

// parseOlderLock reads a lock of version 1 or 2. Both named a server's
// endpoint "transport"; version 1 wrote it as it was run, version 2 as its
// EndpointPin.
func parseOlderLock(data []byte) (*Lock, error) {
	var old struct {
		Version int `json:"version"`
		Servers map[string]struct {
			Transport struct {
				Command     string   `json:"command"`
				Args        []string `json:"args"`
				URL         string   `json:"url"`
				Fingerprint string   `json:"fingerprint"`
				Redacted    string   `json:"redacted"`
			} `json:"transport"`
			Tools map[string]ToolPin `json:"tools"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, err
	}
	l := &Lock{Version: old.Version}
	if old.Servers == nil {
		return l, nil
	}
	l.Servers = make(map[string]ServerPin, len(old.Servers))
	for label, sp := range old.Servers {
		tr := sp.Transport
		pin := EndpointPin{Fingerprint: tr.Fingerprint, Redacted: tr.Redacted}
		if old.Version == 1 {
			pin = EndpointPin{Redacted: Endpoint{Command: tr.Command, Args: tr.Args, URL: tr.URL}.String()}
		}
		l.Servers[label] = ServerPin{Endpoint: pin, Tools: sp.Tools}
	}
	return l, nil
}

// upgradePin re-hashes a tool pin of a version 1 or 2 lock in the current
// canonical form. The old form is the stored definition without its
// indentation; when its SHA-256 is the stored one, the definition is what
// was approved and is canonicalized again. A definition that does not
// match its hash (edited by hand) keeps the hash, which matches no
// definition a server advertises: the tool is reported changed rather than
// its definition trusted.
func upgradePin(p ToolPin) ToolPin {
	var old bytes.Buffer
	if json.Compact(&old, p.Definition) != nil {
		return p
	}
	if sum := sha256.Sum256(old.Bytes()); hex.EncodeToString(sum[:]) != p.SHA256 {
		return p
	}
	def, err := jsonx.Canonical(old.Bytes())
	if err != nil {
		return p
	}
	sum := sha256.Sum256(def)
	return ToolPin{SHA256: hex.EncodeToString(sum[:]), Definition: def}
}

// Outdated reports whether the lock was read from an older version of the
// format: it is to be rewritten, and a version 1 lock may hold secrets in
// clear.
func (l *Lock) Outdated() bool { return l.Version < LockVersion }

// Marshal returns the lock as a file of the current version: indented JSON
// with every object's keys sorted (the canonical form of RFC 8785,
// indented), ending in a newline, so that an update reads well in a diff.
func (l *Lock) Marshal() ([]byte, error) {
	cur := *l
	cur.Version = LockVersion
	b, err := json.Marshal(&cur)
	if err != nil {
		return nil, err
	}
	if b, err = jsonx.Canonical(b); err != nil {
		return nil, err
	}
	if b, err = jsonx.Indent(b); err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
