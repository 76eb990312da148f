package opener

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A RefusedError is a URL Check will not let through, and why.
type RefusedError struct {
	URL    string
	Reason string
}

func (e *RefusedError) Error() string { return "not opened in a browser: " + e.Reason }

// Check returns raw as it is handed to a browser, parsed and
// re-serialized, or a *RefusedError: raw must be an absolute https URL, or
// an http URL to a loopback host, with no user information, no control
// character and no white space.
func Check(raw string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &RefusedError{URL: raw, Reason: fmt.Sprintf(format, args...)}
	}
	if !utf8.ValidString(raw) {
		return refuse("it is not valid UTF-8")
	}
	if i := strings.IndexFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsGraphic(r) }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(raw[i:])
		return refuse("it holds %U, a control character or a space, at byte %d", r, i)
	}
	if strings.HasPrefix(raw, "-") {
		return refuse("it starts with '-', which an opener reads as an option")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return refuse("it is not a URL: %v", errors.Unwrap(err))
	}
	if !u.IsAbs() {
		return refuse("it is not an absolute URL")
	}
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return refuse("its scheme %q is neither https nor http to a loopback host", u.Scheme)
	case u.Opaque != "" || u.Host == "":
		return refuse("it names no host (%s: with no //host)", u.Scheme)
	case u.User != nil:
		return refuse("it carries user information before the host, which hides where it leads")
	case u.Scheme == "http" && !LoopbackHost(u.Hostname()):
		return refuse("it is plain http to %s, which is not a loopback host (only https may leave this machine)", u.Hostname())
	}
	return u.String(), nil
}

// LoopbackHost reports whether host (no port, no brackets) is this
// machine: localhost, or an address in 127.0.0.0/8 or ::1.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// Open checks raw and hands it to the browser: each command of $BROWSER in
// turn, else the platform's opener (see Commands). It returns once a
// command started, without waiting for the browser.
func Open(raw string) error {
	u, err := Check(raw)
	if err != nil {
		return err
	}
	var errs []error
	for _, argv := range Commands(u, os.Getenv("BROWSER"), runtime.GOOS) {
		cmd := exec.Command(argv[0], argv[1:]...) // stdin, stdout and stderr are the null device: never the terminal
		if err := cmd.Start(); err != nil {
			errs = append(errs, err)
			continue
		}
		go cmd.Wait()
		return nil
	}
	return fmt.Errorf("opening a browser: %w", errors.Join(errs...))
}

// Commands are the argument lists that open u (a URL Check returned),
// tried in turn: with browser ($BROWSER) set, each of its commands
// (separated by ':', ';' on windows), split at spaces, u replacing each
// %s of it or else its last argument; otherwise the opener of goos:
// open on darwin, rundll32's FileProtocolHandler on windows, xdg-open
// elsewhere. u is always one whole argument.
func Commands(u, browser, goos string) [][]string {
	if browser == "" {
		switch goos {
		case "darwin":
			return [][]string{{"open", u}}
		case "windows":
			return [][]string{{"rundll32", "url.dll,FileProtocolHandler", u}}
		}
		return [][]string{{"xdg-open", u}}
	}
	sep := ":"
	if goos == "windows" {
		sep = ";"
	}
	var out [][]string
	for _, c := range strings.Split(browser, sep) {
		f := strings.Fields(c)
		if len(f) == 0 {
			continue
		}
		placed := false
		for i, a := range f[1:] {
			if strings.Contains(a, "%s") {
				f[i+1] = strings.ReplaceAll(a, "%s", u)
				placed = true
			}
		}
		if !placed {
			f = append(f, u)
		}
		out = append(out, f)
	}
	return out
}
