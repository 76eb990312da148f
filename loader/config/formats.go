package config

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// formats are the formats mcplens reads, in the order Formats lists them
// and content detection breaks ties. A new client's format is a file of
// its own and one line here.
var formats = []format{
	claudeDesktop{},
	claudeCode{},
	cursor{},
	windsurf{},
	vscode{},
	geminiCLI{},
	codex{},
	zed{},
}

// Formats returns every config format mcplens reads.
func Formats() []Format {
	out := make([]Format, len(formats))
	for i, f := range formats {
		out[i] = f.layout().Format
	}
	return out
}

func formatNamed(name string) format {
	for _, f := range formats {
		if f.layout().Name == name {
			return f
		}
	}
	return nil
}

func formatNames() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.layout().Name
	}
	return strings.Join(names, ", ")
}

// formatAt recognizes the files clients keep at known places, or returns
// nil.
func formatAt(path string) format {
	base, dir := filepath.Base(path), filepath.Base(filepath.Dir(path))
	for _, f := range formats {
		if f.claims(base, dir) {
			return f
		}
	}
	return nil
}

// formatFitting picks the format the document's content fits best, or
// nil.
func formatFitting(root *node) format {
	var best format
	bestFit := noFit
	for _, f := range formats {
		if fit := f.fit(root); fit > bestFit {
			best, bestFit = f, fit
		}
	}
	return best
}

// serversKeys lists the keys servers are under, each once, for a message.
func serversKeys() string {
	var keys []string
	for _, f := range formats {
		if k := strconv.Quote(f.layout().serversKey); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " or " + keys[len(keys)-1]
}
