package oauth

// AsPublicServer makes o take the server for one at a public address,
// wherever it is: tests have no public address to serve from, so a
// server at 127.0.0.1 stands for one.
func AsPublicServer(o Options) Options {
	o.reach = reach(classPublic)
	return o
}
