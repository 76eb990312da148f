// Package inputs is the prompt for a config's inputs (VS Code's
// ${input:ID}): the inputs its servers use (Needed), asked one at a time
// before the interface starts, as VS Code asks before it starts a server
// that uses one. It is a program of its own, run before the interface:
// its Model is a tea.Model with SetSize, ShortHelp and FullHelp, its keys
// and styles given in a Config. It reads nothing of the interface and
// imports neither ui nor its components.
package inputs
