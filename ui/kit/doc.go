// Package kit is what every part of mcplens's interface draws and moves
// with, below the root package ui and the components under it (ui/form,
// ui/reader): measuring, cutting and joining styled text (text.go),
// masking server text before it is shown (mask.go), the movement keys
// (nav.go) and the line a search is typed on (query.go). It knows no
// view, no server and no Model; a component imports it, never ui.
package kit
