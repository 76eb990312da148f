package cli

import (
	"github.com/mcplens/mcplens/model"
)

// A protocolFlag is --protocol REVISION: the protocol revision every server
// is asked for, whatever the client profile's. A revision mcplens knows, or
// one shaped as a revision (a date); anything else is a usage error.
type protocolFlag string

// protocolHelp is --protocol's help.
const protocolHelp = "ask every server for this protocol revision, whatever the client profile's (its era: server/discover from 2026-07-28, " +
	"initialize before); a date YYYY-MM-DD, e.g. 2026-07-28, 2025-11-25, 2025-06-18 (default: the profile's; mcplens's own speaks 2026-07-28 and negotiates down)"

func (p *protocolFlag) String() string { return string(*p) }

func (p *protocolFlag) Set(v string) error {
	rev, err := model.ParseRevision(v)
	if err != nil {
		return err
	}
	*p = protocolFlag(rev)
	return nil
}
