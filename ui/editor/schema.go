package editor

import (
	"encoding/json"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/argcheck"
)

// An inputSchema is a tool's input schema, compiled once: in the
// background when the editor opens (a large schema takes a while), or at
// the latest when the arguments are sent.
type inputSchema struct {
	raw     json.RawMessage
	once    sync.Once
	started bool
	sch     *argcheck.Schema
	err     error
	done    chan struct{} // closed once compiled
}

// start returns the command that compiles the schema, the first time.
func (s *inputSchema) start() tea.Cmd {
	if s == nil || s.started {
		return nil
	}
	s.started = true
	return func() tea.Msg {
		s.compiled()
		return nil
	}
}

// compiled returns the compiled schema, compiling it if need be.
func (s *inputSchema) compiled() (*argcheck.Schema, error) {
	s.once.Do(func() {
		s.sch, s.err = argcheck.Compile(s.raw)
		close(s.done)
	})
	return s.sch, s.err
}

// problem says why the arguments are not checked, once that is known.
func (s *inputSchema) problem() string {
	if s == nil {
		return ""
	}
	select {
	case <-s.done:
		if s.err != nil {
			return "the arguments are not checked: " + s.err.Error()
		}
	default:
	}
	return ""
}
