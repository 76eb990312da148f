// Package peak measures the peak resident memory (VmHWM) of a process the
// tests run: the figure the README's memory bounds are stated in.
//
// It is for tests only and imports only the standard library; production code never imports it.
package peak
