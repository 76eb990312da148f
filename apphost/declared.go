package apphost

import (
	"maps"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// differs reports whether an app resource's listing declares a CSP or
// permissions (listed) other than its read contents do (read); a listing
// that declares none differs from nothing.
func differs(listed, read model.AppResource) bool {
	if len(listed.CSP) == 0 && len(listed.Permissions) == 0 {
		return false
	}
	return !maps.EqualFunc(listed.CSP, read.CSP, slices.Equal) || !slices.Equal(listed.Permissions, read.Permissions)
}

// describe says what an app resource declares, in short: "connectDomains
// https://a https://b; permissions camera", "nothing".
func describe(r model.AppResource) string {
	var parts []string
	for _, k := range model.CSPDirectives {
		if len(r.CSP[k]) > 0 {
			parts = append(parts, k+" "+strings.Join(r.CSP[k], " "))
		}
	}
	if len(r.Permissions) > 0 {
		parts = append(parts, "permissions "+strings.Join(r.Permissions, " "))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return model.ClipText(strings.Join(parts, "; "), 600)
}

// mask hides the config's secrets in s (Options.Mask).
func mask(o Options, s string) string {
	if o.Mask == nil {
		return s
	}
	return o.Mask(s)
}
