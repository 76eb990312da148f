package model

import "testing"

func TestMaskWebhooksAndBearer(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"slack", `{"url":"https://hooks.slack.com/services/T000/B000/XXXX"}`, `{"url":"https://hooks.slack.com/services/****"}`},
		{"discord", "post to https://discord.com/api/webhooks/123/abc-DEF now", "post to https://discord.com/api/webhooks/**** now"},
		{"teams", "https://acme.webhook.office.com/webhookb2/x@y/IncomingWebhook/z", "https://acme.webhook.office.com/webhookb2/****"},
		{"telegram", "https://api.telegram.org/bot123456:ABC-def/sendMessage", "https://api.telegram.org/bot****"},
		{"two", "hooks.slack.com/services/A hooks.slack.com/services/B", "hooks.slack.com/services/**** hooks.slack.com/services/****"},
		{"no key", "see hooks.slack.com/services/ for help", "see hooks.slack.com/services/ for help"},
		{"bearer", `you sent "Authorization: Bearer abcdefgh1234"`, `you sent "Authorization: Bearer ****"`},
		{"lower case", "bearer abcdefgh1234.x-y", "bearer ****"},
		{"basic", "Basic dXNlcjpwYXNzd29yZA==", "Basic ****"},
		{"prose", "a Bearer token is needed", "a Bearer token is needed"},
		{"auth-param", `Bearer resource_metadata="https://h/x"`, `Bearer resource_metadata="https://h/x"`},
		{"inside a word", "xBearer abcdefgh1234", "xBearer abcdefgh1234"},
		{"user and password", "at https://bob:opensesame99@db.example/x", "at https://bob:****@db.example/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MaskTokens(tt.in); got != tt.want {
				t.Errorf("MaskTokens(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
