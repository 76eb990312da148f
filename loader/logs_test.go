package loader

import (
	"strings"
	"testing"
)

// TestLogRingBounds checks the bounds of a server's log messages: the
// count, the bytes in all, and the data of one message.
func TestLogRingBounds(t *testing.T) {
	var r logRing
	for range maxLogMessages + 20 {
		r.add(LogMessage{Level: "info", Data: `"x"`})
	}
	msgs, lost := r.list()
	if len(msgs) != maxLogMessages || lost != 20 {
		t.Errorf("kept %d, dropped %d; want %d and 20", len(msgs), lost, maxLogMessages)
	}

	var big logRing
	data := strings.Repeat("y", maxLogData)
	for range 2 * maxLogBytes / maxLogData {
		big.add(LogMessage{Data: data})
	}
	msgs, lost = big.list()
	total := 0
	for _, m := range msgs {
		total += len(m.Data)
	}
	if total > maxLogBytes || lost == 0 || len(msgs) == 0 {
		t.Errorf("kept %d messages, %d bytes, dropped %d; want at most %d bytes", len(msgs), total, lost, maxLogBytes)
	}
}
