package apppage

import (
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Post sends body to the relay of the host page at page and returns a
// channel that gets the answer's body, or the error's text.
func Post(page, body string) <-chan string {
	got := make(chan string, 1)
	go func() {
		u, err := url.Parse(page)
		if err != nil {
			got <- err.Error()
			return
		}
		req, err := http.NewRequest(http.MethodPost, page+"rpc", strings.NewReader(body))
		if err != nil {
			got <- err.Error()
			return
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", u.Scheme+"://"+u.Host)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			got <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	return got
}
