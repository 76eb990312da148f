package model

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// An AppResource is what a ui:// resource's _meta.ui asks of its host: the
// origins its content security policy lets it reach, and the browser
// permissions it wants. The list row's _meta and the read contents' _meta
// both may carry it; the host uses the contents', as the extension says.
type AppResource struct {
	// CSP maps each directive the extension names (connectDomains,
	// resourceDomains, frameDomains, baseUriDomains) to its well-formed
	// origins, in the order listed.
	CSP map[string][]string
	// Permissions are the permissions asked for, of PermissionNames.
	Permissions []string
	// Problems say what is malformed (an origin that is none, an unknown
	// directive or permission), left out of CSP, and what is risky: an
	// origin on the user's machine or network, kept.
	Problems []string
}

// CSPDirectives are the CSP members of _meta.ui.csp, in the order a detail
// pane lists them.
var CSPDirectives = []string{"connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"}

// PermissionNames are the members of _meta.ui.permissions, each with the
// words that explain it in a description.
var PermissionNames = map[string][]string{
	"camera":         {"camera", "video"},
	"microphone":     {"microphone", "audio", "voice"},
	"geolocation":    {"location"},
	"clipboardWrite": {"clipboard", "copy"},
}

// cspOrigin is a CSP source an app may name: a scheme the web reaches, a
// host (a leading "*." for its subdomains) or a bracketed IPv6 literal, an
// optional port. Nothing else: a space, a quote or a semicolon would add a
// directive to the policy a host builds from it.
var cspOrigin = regexp.MustCompile(`^(https?|wss?)://(\*\.)?([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$`)

// MaxAppOrigins bounds the origins kept of each CSP directive of an app
// resource; the rest are left out (a finding says so). The policy a host
// builds from them is a response header, which a browser refuses whole
// past a few hundred KiB (Chromium: 256 KiB), and with it the app.
const MaxAppOrigins = 64

// maxAppProblems bounds the problems kept of one app resource's _meta.ui.
const maxAppProblems = 16

// ValidOrigin reports whether s is an origin an app's CSP may name.
func ValidOrigin(s string) bool { return len(s) <= 255 && cspOrigin.MatchString(s) }

// AppResourceOfMeta reads a resource's (or its contents') _meta member.
func AppResourceOfMeta(meta json.RawMessage) AppResource {
	r := AppResource{CSP: map[string][]string{}}
	var m struct {
		UI *struct {
			CSP         map[string]json.RawMessage `json:"csp"`
			Permissions map[string]json.RawMessage `json:"permissions"`
		} `json:"ui"`
	}
	if len(meta) == 0 {
		return r
	}
	if err := json.Unmarshal(meta, &m); err != nil {
		r.Problems = append(r.Problems, "_meta.ui is malformed: "+err.Error())
		return r
	}
	if m.UI == nil {
		return r
	}
	for _, k := range slices.Sorted(maps.Keys(m.UI.CSP)) {
		if !slices.Contains(CSPDirectives, k) {
			r.Problems = append(r.Problems, fmt.Sprintf("_meta.ui.csp names %q, not one of %s", k, strings.Join(CSPDirectives, ", ")))
			continue
		}
		var origins []string
		if json.Unmarshal(m.UI.CSP[k], &origins) != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("_meta.ui.csp.%s is %s, not an array of strings", k, JSONKind(m.UI.CSP[k])))
			continue
		}
		for _, o := range origins {
			if !ValidOrigin(o) {
				r.Problems = append(r.Problems, fmt.Sprintf("_meta.ui.csp.%s names %q, not an origin (scheme://host[:port])", k, ClipText(o, 80)))
				continue
			}
			r.CSP[k] = append(r.CSP[k], o)
		}
		if n := len(r.CSP[k]); n > MaxAppOrigins {
			r.CSP[k] = r.CSP[k][:MaxAppOrigins]
			r.Problems = append(r.Problems, fmt.Sprintf("_meta.ui.csp.%s names %d origins, over the host's %d: the first %d are kept", k, n, MaxAppOrigins, MaxAppOrigins))
		}
		if local := slices.DeleteFunc(slices.Clone(r.CSP[k]), func(o string) bool { return !localOrigin(o) }); len(local) > 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("_meta.ui.csp.%s names %s, on the user's machine or network: the app can reach the services there",
				k, strings.Join(local[:min(len(local), 3)], ", ")+more(len(local)-3)))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m.UI.Permissions)) {
		if _, ok := PermissionNames[k]; !ok {
			r.Problems = append(r.Problems, fmt.Sprintf("_meta.ui.permissions names %q, not one of camera, microphone, geolocation, clipboardWrite", k))
			continue
		}
		r.Permissions = append(r.Permissions, k)
	}
	if n := len(r.Problems); n > maxAppProblems {
		r.Problems = append(r.Problems[:maxAppProblems-1], fmt.Sprintf("and %d more problems", n-maxAppProblems+1))
	}
	return r
}

// more says how many more there are, if any: " and 5 more".
func more(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

// localOrigin reports whether a well-formed origin names a host on the
// user's machine or network: localhost, a loopback, private, link-local
// or unspecified address, as a browser reads the host (2130706433,
// 0x7f.1 and 127.1 are 127.0.0.1 to it).
func localOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		var ok bool
		if ip, ok = browserIPv4(host); !ok {
			return false
		}
	}
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()
}

// browserIPv4 reads host as the URL standard's IPv4 parser does: one to
// four parts of decimal, 0x hexadecimal or 0 octal numbers, the last
// filling the bytes left.
func browserIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var n uint64
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 0, 32) // base 0: 0x hex, 0 octal
		if err != nil || p == "" || strings.HasPrefix(p, "0o") || strings.HasPrefix(p, "0b") || strings.Contains(p, "_") {
			return netip.Addr{}, false
		}
		last := i == len(parts)-1
		if !last && v > 255 || last && v >= 1<<(8*(5-len(parts))) {
			return netip.Addr{}, false
		}
		if last {
			n = n<<(8*(5-len(parts))) | v
		} else {
			n = n<<8 | v
		}
	}
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// AppResourceOf reads what a listed resource's own _meta.ui asks.
func AppResourceOf(r Resource) AppResource { return AppResourceOfMeta(resourceMeta(r.Raw)) }

// resourceMeta returns a resource row's _meta member.
func resourceMeta(raw json.RawMessage) json.RawMessage {
	var m struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m.Meta
}

// AppFindings lints one server's apps: each tool whose _meta.ui is
// malformed, whose resource is not in the server's resources/list, is of
// another type than AppMIMEType, declares a malformed CSP, or asks for a
// permission neither its description nor its resource's explains.
func AppFindings(server string, tools []Tool, resources []Resource) []Finding {
	var out []Finding
	add := func(sev Severity, kind, tool, evidence string) {
		out = append(out, Finding{Severity: sev, Kind: kind, Server: server, Tool: tool, Evidence: evidence})
	}
	linted := map[string]bool{} // a resource's own findings, once
	for i := range tools {
		t := &tools[i]
		a := t.App
		if a == nil || !t.named() {
			continue
		}
		if a.Problem != "" {
			add(Warn, "app-meta", t.Name, "tool "+QuoteJSON(t.Name)+": "+a.Problem)
		}
		if a.ResourceURI == "" || !strings.HasPrefix(a.ResourceURI, AppScheme) {
			continue
		}
		at := slices.IndexFunc(resources, func(r Resource) bool { return r.URI == a.ResourceURI })
		if at < 0 {
			add(Fail, "app-resource", t.Name, fmt.Sprintf("tool %s names app resource %s, which resources/list does not list", QuoteJSON(t.Name), QuoteJSON(a.ResourceURI)))
			continue
		}
		res := &resources[at]
		if !strings.EqualFold(strings.ReplaceAll(res.MIMEType, " ", ""), AppMIMEType) {
			add(Fail, "app-resource", t.Name, fmt.Sprintf("tool %s names app resource %s, of type %s, not %s",
				QuoteJSON(t.Name), QuoteJSON(a.ResourceURI), QuoteJSON(res.MIMEType), AppMIMEType))
		}
		if linted[a.ResourceURI] {
			continue
		}
		linted[a.ResourceURI] = true
		ar := AppResourceOf(*res)
		for _, p := range ar.Problems {
			add(Warn, "app-csp", t.Name, "app resource "+QuoteJSON(a.ResourceURI)+": "+p)
		}
		for _, p := range ar.Permissions {
			if !explains(t.Description+" "+res.Description, PermissionNames[p]) {
				add(Warn, "app-permission", t.Name, fmt.Sprintf("app resource %s asks for %s, which neither the tool's description nor the resource's explains",
					QuoteJSON(a.ResourceURI), p))
			}
		}
	}
	return out
}

// explains reports whether text names one of words.
func explains(text string, words []string) bool {
	text = strings.ToLower(text)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(text, w) })
}
