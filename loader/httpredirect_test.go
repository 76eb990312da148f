package loader

import (
	"net/url"
	"testing"
)

func TestSameOrigin(t *testing.T) {
	for _, tt := range []struct {
		name, a, b string
		want       bool
	}{
		{"same", "http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/other?x=1", true},
		{"default port written out", "https://example.com/mcp", "https://EXAMPLE.com:443/mcp", true},
		{"another port", "http://127.0.0.1:8080/mcp", "http://127.0.0.1:8081/mcp", false},
		{"another host", "https://example.com/mcp", "https://api.example.com/mcp", false},
		{"another scheme", "https://example.com/mcp", "http://example.com/mcp", false},
		{"https to http on 443", "https://example.com/mcp", "http://example.com:443/mcp", false},
		{"ipv6", "http://[::1]:9/mcp", "http://[::1]:9/x", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := url.Parse(tt.a)
			b, _ := url.Parse(tt.b)
			if got := sameOrigin(a, b); got != tt.want {
				t.Errorf("sameOrigin(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}
