// Package kit is what every part of mcplens's interface draws and moves
// with, below the root package ui and the components under it (ui/form,
// ui/reader, ui/wire): measuring, cutting, wrapping and joining styled
// text (text.go), the boxes drawn over the screen and the keys that fit
// their line (box.go), masking server text before it is shown (mask.go), the
// movement keys (nav.go), the one scroller and byte sizes (scroll.go),
// lines of every server in time order (bytime.go), and the line a search
// is typed on (query.go). It knows no view, no server and no Model; a
// component imports it, never ui.
package kit
