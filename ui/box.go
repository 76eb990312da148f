package ui

import "github.com/mcplens/mcplens/ui/kit"

// box is what every box drawn over the screen (kit.Box) is drawn with:
// the Overlay style's frame, scroll marks muted.
func (s Styles) box() kit.BoxStyles { return kit.BoxStyles{Frame: s.Overlay, Muted: s.Muted} }
