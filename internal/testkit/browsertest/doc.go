// Package browsertest is a browser for tests: a real shell script, set as
// $BROWSER, that appends the arguments it was started with to a file, so
// that a test can see exactly what mcplens handed to the opener.
//
//	b := browsertest.New(t) // sets $BROWSER for the test
//	... something opens a URL ...
//	calls := b.Wait(t, 1)   // [][]string{{"https://..."}}
package browsertest
