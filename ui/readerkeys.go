package ui

import "charm.land/bubbles/v2/key"

// ReaderKeys are the keys of the reader and of what opens it.
type ReaderKeys struct {
	// Read opens the bottom pane in the reader; Open opens the frame
	// selected in the wire pane.
	Read, Open key.Binding
	// Search, Next and Previous search the text read.
	Search, Next, Previous key.Binding
	// Copy copies the thing focused; Save writes an image's bytes.
	Copy, Save key.Binding
	// LastResult shows the last result of the selected tool again.
	LastResult key.Binding
	// Linked jumps between a request and its response in the wire pane;
	// Pair shows them side by side (ui/wire/pair.go).
	Linked, Pair key.Binding
	// Done ends typing a search.
	Done key.Binding
}

func defaultReaderKeys() ReaderKeys {
	return ReaderKeys{
		Read:       key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "read in full")),
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open frame")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Next:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/previous match")),
		Previous:   key.NewBinding(key.WithKeys("N")),
		Copy:       key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		Save:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "save")),
		LastResult: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "back to the last result")),
		Linked:     key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "request ⇄ response")),
		Pair:       key.NewBinding(key.WithKeys("|"), key.WithHelp("|", "request | response side by side")),
		Done:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep the search")),
	}
}
