// Package ui is mcplens's terminal interface: one Bubble Tea program over
// the servers a loader session connects and the registry a naming policy
// builds from them.
//
// Data flows one way. Loader events (a server connected, failed, listed its
// tools, moved frames over the wire) update the per-server state; the active
// policy is applied to the ordered catalogues to give a model.Registry; the
// views render that registry. Switching policy is a recomputation, never a
// reconnect.
package ui
