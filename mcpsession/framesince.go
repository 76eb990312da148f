package mcpsession

// Since returns the frames held that came after the first n the server
// exchanged (n is a total from Len or an earlier Since), oldest first; the
// total exchanged so far, to pass to the next Since; and how many of the
// frames after n are no longer held (the log keeps the last MaxFrames). A
// watcher that prints frames as they cross reads each once this way.
func (l *FrameLog) Since(n int) (frames []Frame, total, lost int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	total = l.total
	held := len(l.ring)
	first := total - held // the total index of the oldest frame held
	if n < first {
		lost, n = first-n, first
	}
	for i := n - first; i < held; i++ {
		frames = append(frames, l.ring[(l.head+i)%held])
	}
	return frames, total, lost
}
