package headless

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path is where Debian's chromium package puts the browser.
const Path = "/usr/bin/chromium"

// RequireBrowser, set to 1, makes a missing browser fail a test rather
// than skip it.
const RequireBrowser = "MCPLENS_REQUIRE_BROWSER"

// New starts a headless Chromium for t and returns the context of its
// first tab; the browser is shut down when t ends.
func New(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(Path); err != nil {
		if os.Getenv(RequireBrowser) == "1" {
			t.Fatalf("no browser at %s (apt-get install chromium): %v", Path, err)
		}
		t.Skipf("no browser at %s (apt-get install chromium; %s=1 makes this a failure)", Path, RequireBrowser)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox, // tests run as root in CI, where Chromium's own sandbox cannot start
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("no-proxy-server", true),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", Path, err)
	}
	return ctx
}

// Frame returns a context on the iframe of the page of ctx whose URL ends
// with suffix: Chromium runs a sandboxed iframe as a target of its own,
// which the page's context does not reach. It polls for the target until
// a deadline. Actions on it may run under a timeout.
func Frame(t *testing.T, ctx context.Context, suffix string) context.Context {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range infos {
			if info.Type == "iframe" && strings.HasSuffix(info.URL, suffix) {
				frame, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(info.TargetID))
				t.Cleanup(cancel)
				// Attached here, on a context that lives as long as the
				// test: a first action under a timeout would detach the
				// target when its timeout ends.
				if err := chromedp.Do(frame); err != nil {
					t.Fatalf("attaching to the iframe %s: %v", info.URL, err)
				}
				return frame
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no iframe target ending %q", suffix)
	return nil
}
