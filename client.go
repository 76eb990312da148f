package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// clientOptions choose who mcplens connects as, for the interface, check
// and call: a client profile's handshake, and the roots it answers
// roots/list with.
type clientOptions struct {
	// client is --client NAME[@VERSION]; "" connects as mcplens itself.
	client string
	roots  rootList
}

// register adds --client and --root to fs.
func (o *clientOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.client, "client", "", "connect as this client: its handshake (clientInfo, capabilities, protocol, headers) and, "+
		"unless --policy is given, its naming policy; NAME or NAME@VERSION: "+strings.Join(model.ClientKeys(), ", "))
	fs.Var(&o.roots, "root", "a folder the client answers roots/list with (repeatable; default: the config file's folder)")
}

// profile returns the --client profile; ok is false without --client.
func (o clientOptions) profile() (c model.Client, ok bool, err error) {
	if o.client == "" {
		return model.Client{}, false, nil
	}
	c, err = model.ClientNamed(o.client)
	return c, err == nil, err
}

// policy is the naming policy a run uses: --policy when given, else the
// --client profile's, else policy (--policy's default).
func (o clientOptions) policy(fs *flag.FlagSet, policy string) string {
	c, ok, _ := o.profile()
	if !ok || flagSet(fs, "policy") {
		return policy
	}
	return c.Policy
}

// session is what loader.Options takes from the client: the handshake
// (mcplens's neutral one without --client) and the roots, by default the
// folder of cfg's file (the working directory for the demo).
func (o clientOptions) session(cfg *config.Config, opts loader.Options) loader.Options {
	if c, ok, _ := o.profile(); ok {
		opts.Handshake = c.Handshake
	}
	opts.Answers.Roots = o.roots
	if len(opts.Answers.Roots) == 0 {
		dir := "."
		if fi, err := os.Stat(cfg.Path); err == nil && !fi.IsDir() {
			dir = filepath.Dir(cfg.Path)
		}
		if abs, err := filepath.Abs(dir); err == nil {
			opts.Answers.Roots = []string{abs}
		}
	}
	return opts
}

// name is the client a report or a header names: the profile's key, ""
// without --client.
func (o clientOptions) name() string {
	c, ok, _ := o.profile()
	if !ok {
		return ""
	}
	return c.Key()
}

// flagSet reports whether the flag name was given on fs's command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// A rootList is --root, repeatable: folders, made absolute.
type rootList []string

func (r *rootList) String() string { return strings.Join(*r, ",") }

func (r *rootList) Set(v string) error {
	abs, err := filepath.Abs(v)
	if err != nil {
		return fmt.Errorf("--root %q: %w", v, err)
	}
	*r = append(*r, abs)
	return nil
}
