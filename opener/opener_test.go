package opener_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/opener"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      string // the URL handed over; "" when refused
		reason    string // a part of the reason, when refused
	}{
		{name: "https", raw: "https://x", want: "https://x"},
		{name: "https with path, query and fragment", raw: "https://example.com/a/b?c=d&e=%20#f", want: "https://example.com/a/b?c=d&e=%20#f"},
		{name: "loopback http with port", raw: "http://127.0.0.1:8080/cb", want: "http://127.0.0.1:8080/cb"},
		{name: "loopback http, another 127 address", raw: "http://127.9.8.7/", want: "http://127.9.8.7/"},
		{name: "loopback http, ipv6", raw: "http://[::1]:9/cb", want: "http://[::1]:9/cb"},
		{name: "loopback http, localhost", raw: "http://LocalHost:3000/", want: "http://LocalHost:3000/"},
		{name: "scheme in capitals", raw: "HTTPS://example.com/", want: "https://example.com/"},
		{name: "punycode host", raw: "https://xn--bcher-kva.example/", want: "https://xn--bcher-kva.example/"},
		{name: "IDN host", raw: "https://bücher.example/", want: "https://b%C3%BCcher.example/"},

		{name: "file", raw: "file:///etc/shadow", reason: `scheme "file"`},
		{name: "smb", raw: "smb://host/share/x.exe", reason: `scheme "smb"`},
		{name: "javascript", raw: "javascript:alert(1)", reason: `scheme "javascript"`},
		{name: "data", raw: "data:text/html,<script>alert(1)</script>", reason: `scheme "data"`},
		{name: "ms-msdt", raw: "ms-msdt://localhost/x", reason: `scheme "ms-msdt"`},
		{name: "an option", raw: "--version", reason: "starts with '-'"},
		{name: "an option with a value", raw: "-a=https://x", reason: "starts with '-'"},
		{name: "relative", raw: "/etc/passwd", reason: "not an absolute URL"},
		{name: "empty", raw: "", reason: "not an absolute URL"},
		{name: "public http", raw: "http://example.com", reason: "plain http to example.com"},
		{name: "http to a private address", raw: "http://10.0.0.1/", reason: "plain http to 10.0.0.1"},
		{name: "http to a name that starts with 127", raw: "http://127.0.0.1.evil.example/", reason: "plain http"},
		{name: "no host", raw: "https:///path", reason: "names no host"},
		{name: "opaque https", raw: "https:example.com", reason: "names no host"},
		{name: "user and password", raw: "https://user:pw@example.com/", reason: "user information"},
		{name: "user that looks like a host", raw: "https://google.com@evil.example/", reason: "user information"},
		{name: "newline", raw: "https://x/a\nb", reason: "U+000A"},
		{name: "carriage return", raw: "https://x/\r", reason: "U+000D"},
		{name: "escape", raw: "https://x/\x1b]0;title\x07", reason: "U+001B"},
		{name: "space", raw: "https://x/a b", reason: "U+0020"},
		{name: "tab", raw: "https://x/\t", reason: "U+0009"},
		{name: "no-break space", raw: "https://x/\u00a0", reason: "U+00A0"},
		{name: "bidi override", raw: "https://x/\u202egnp.exe", reason: "U+202E"},
		{name: "NUL", raw: "https://x/\x00", reason: "U+0000"},
		{name: "invalid UTF-8", raw: "https://x/\xff", reason: "not valid UTF-8"},
		{name: "bad port", raw: "https://x:port/", reason: "not a URL"},
		{name: "bad escape", raw: "https://x/%zz", reason: "not a URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := opener.Check(tc.raw)
			if tc.reason == "" {
				if err != nil || got != tc.want {
					t.Fatalf("Check(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
				}
				if strings.HasPrefix(got, "-") {
					t.Fatalf("Check(%q) = %q starts with '-'", tc.raw, got)
				}
				return
			}
			var re *opener.RefusedError
			if !errors.As(err, &re) || got != "" {
				t.Fatalf("Check(%q) = %q, %v; want a *RefusedError", tc.raw, got, err)
			}
			if re.URL != tc.raw || !strings.Contains(re.Reason, tc.reason) {
				t.Errorf("Check(%q) refused %q because %q; want the URL and a reason with %q", tc.raw, re.URL, re.Reason, tc.reason)
			}
		})
	}
}

// FuzzCheck: whatever Check lets through is https, or http to a loopback
// host, never starts with '-', holds no control character or space, and
// is let through again unchanged.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"https://x", "http://127.0.0.1:8080/cb", "file:///etc/shadow", "--version", "javascript:alert(1)", "https://a@b/", "http://[::1]/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := opener.Check(raw)
		if err != nil {
			return
		}
		if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			t.Fatalf("Check(%q) = %q: not http(s)", raw, u)
		}
		if strings.ContainsAny(u, " \t\r\n\x00\x1b\x7f") {
			t.Fatalf("Check(%q) = %q: holds a control character or a space", raw, u)
		}
		if again, err := opener.Check(u); err != nil || again != u {
			t.Fatalf("Check(Check(%q)) = %q, %v; want %q", raw, again, err, u)
		}
	})
}

func TestLoopbackHost(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"localhost", true}, {"LOCALHOST", true}, {"127.0.0.1", true}, {"127.255.0.9", true}, {"::1", true},
		{"::ffff:127.0.0.1", true}, {"0.0.0.0", false}, {"10.0.0.1", false}, {"example.com", false},
		{"localhost.example.com", false}, {"[::1]", false}, {"", false},
	} {
		if got := opener.LoopbackHost(tc.host); got != tc.want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

func TestCommands(t *testing.T) {
	const u = "https://example.com/a?b=c"
	for _, tc := range []struct {
		name, browser, goos string
		want                [][]string
	}{
		{name: "linux", goos: "linux", want: [][]string{{"xdg-open", u}}},
		{name: "freebsd", goos: "freebsd", want: [][]string{{"xdg-open", u}}},
		{name: "darwin", goos: "darwin", want: [][]string{{"open", u}}},
		{name: "windows", goos: "windows", want: [][]string{{"rundll32", "url.dll,FileProtocolHandler", u}}},
		{name: "BROWSER, one command", browser: "firefox", goos: "linux", want: [][]string{{"firefox", u}}},
		{name: "BROWSER with arguments", browser: "firefox --new-window", goos: "darwin", want: [][]string{{"firefox", "--new-window", u}}},
		{name: "BROWSER, several", browser: "w3m::lynx -dump", goos: "linux", want: [][]string{{"w3m", u}, {"lynx", "-dump", u}}},
		{name: "BROWSER with %s", browser: "chromium --app=%s --incognito", goos: "linux", want: [][]string{{"chromium", "--app=" + u, "--incognito"}}},
		{name: "BROWSER with %s alone", browser: "open -a Safari %s", goos: "darwin", want: [][]string{{"open", "-a", "Safari", u}}},
		{name: "BROWSER on windows splits at ;", browser: `C:\b\chrome.exe;edge`, goos: "windows", want: [][]string{{`C:\b\chrome.exe`, u}, {"edge", u}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := opener.Commands(u, tc.browser, tc.goos)
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("Commands(%q, %q, %q) = %q, want %q", u, tc.browser, tc.goos, got, tc.want)
			}
		})
	}
}
