package main

import (
	"bytes"
	"fmt"
	"os"
)

// askBig asks the client a question whose message is s.size bytes of
// prose in lines: a sampling request (big-sampling) or a form elicitation
// (big-elicitation). It is written as it goes rather than held.
func (s *server) askBig() {
	head := `{"jsonrpc":"2.0","id":"ask-1","method":"sampling/createMessage","params":{"maxTokens":100,` +
		`"messages":[{"role":"user","content":{"type":"text","text":"`
	tail := `"}}]}}` + "\n"
	if s.mode == "big-elicitation" {
		head = `{"jsonrpc":"2.0","id":"ask-1","method":"elicitation/create","params":{"message":"`
		tail = `","requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Your name"}}}}}` + "\n"
	}
	line := []byte(`All work and no play makes a very long question for the model.\n`) // \n as JSON writes it
	fmt.Fprintf(os.Stderr, "hostile: asking %s of %d bytes\n", s.mode, s.size)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.WriteString(head)
	chunk := bytes.Repeat(line, 1<<16/len(line))
	for left := s.size; left > 0; left -= int64(len(chunk)) {
		n := min(left, int64(len(chunk)))
		for n > 0 && chunk[n-1] == '\\' { // never end inside an escape
			n--
		}
		if _, err := s.out.Write(chunk[:n]); err != nil {
			return
		}
	}
	s.out.WriteString(tail)
	s.out.Flush()
}

// answered logs the start of the answer to the question asked.
func (s *server) answered(line []byte) {
	fmt.Fprintf(os.Stderr, "hostile: answered: %s\n", bytes.TrimSpace(line[:min(len(line), 300)]))
	s.record("answer " + string(bytes.TrimSpace(line[:min(len(line), 300)])))
}
