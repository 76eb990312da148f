package procguard

import (
	"errors"
	"io"
	"syscall"
)

// guarded: on Windows no guard process runs; each server's job object
// (Tree) holds its processes, and Windows ends the job when mcplens's
// handle to it closes.
const guarded = false

// guardAttr is never used: Hold starts no guard on Windows.
func guardAttr() *syscall.SysProcAttr { return nil }

// Serve refuses: on Windows the job objects play the guard's part.
func Serve(io.Reader) error {
	return errors.New("no process guard runs on Windows: a job object holds each server's processes")
}
