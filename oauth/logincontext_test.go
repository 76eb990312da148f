package oauth

import (
	"context"
	"testing"
	"time"
)

// A login a refused request starts outlives the request's deadline (a
// probe's few seconds) but ends with the request's cancellation (the
// user's interrupt).
func TestLoginContext(t *testing.T) {
	expired, cancelExpired := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelExpired()
	ctx, cancel := loginContext(expired)
	if ctx.Err() != nil {
		t.Errorf("the login's context ended with the request's deadline: %v", ctx.Err())
	}
	if d, ok := ctx.Deadline(); !ok || time.Until(d) <= LoginBudget/2 {
		t.Errorf("the login's deadline is %v, want LoginBudget from now", d)
	}
	cancel()

	req, interrupt := context.WithCancel(context.Background())
	ctx, cancel = loginContext(req)
	defer cancel()
	interrupt()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the login's context outlived the request's cancellation")
	}
}
