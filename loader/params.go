package loader

import "github.com/mcplens/mcplens/model"

// InitializeParams are the params of the initialize request the handshake
// h sends, as a session sends them: for a prober of its own (audit) that
// must speak as the same client.
func InitializeParams(h model.Handshake) any { return initializeRequest(h).Params }

// StatelessMeta is the _meta each request of a stateless connection at
// version carries for h; nil for a revision that runs initialize.
func StatelessMeta(h model.Handshake, version string) map[string]any { return stateless(h, version) }

// SplitLine cuts a stdout line that is not JSON as a whole into the JSON
// objects it carries and the junk around them, as a session reads it
// (isJSON[i] says which part parts[i] is).
func SplitLine(line []byte) (parts [][]byte, isJSON []bool) {
	for _, p := range splitJunk(line) {
		parts, isJSON = append(parts, p.text), append(isJSON, p.json)
	}
	return parts, isJSON
}
