// Package ui is mcplens's terminal interface: one Bubble Tea program over
// the servers a loader session connects and the registry a naming policy
// builds from them. It owns what the screen shows and the keys; it reads
// server state and computes nothing of its own about names or findings
// (model and report do), and must not import the root package or the
// loader's session internals beyond the Backend it is given.
//
// Data flows one way. Loader events (a server connected, failed, listed its
// tools, moved frames over the wire) update the per-server state; the active
// policy is applied to the ordered catalogues to give a model.Registry; the
// views render that registry. Switching policy is a recomputation, never a
// reconnect.
//
// The root Model (app.go) routes messages and lays out the screen. Each view
// (servers.go, registry.go, compare.go, collisions.go, findings.go), the
// wire pane (wire.go) and the argument editor (invoke.go) is a component
// (component.go): it is given its size, owns its cursor, scroll and cache,
// and says which keys work in it, so the footer and the help screen come
// from the focused component. A sixth view is a type that implements
// listing, a case in Model.listing and a key in KeyMap.Views.
package ui
