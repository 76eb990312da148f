//go:build unix

package loader_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

func promptNames(ps []model.Prompt) []string {
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	return names
}

// TestOffers lists the prompts, resources and template of two mcp-go
// servers, reads a text and a blob resource, gets a prompt with an
// argument, completes an argument and a template variable, and sees a
// subscribed resource's update and a prompts/list_changed relisting.
func TestOffers(t *testing.T) {
	bin := buildServer(t, "prompts")
	cfg := &config.Config{Servers: []config.ServerSpec{
		{Label: "alpha", Transport: config.TransportStdio, Command: bin, Args: []string{"alpha"}},
		{Label: "beta", Transport: config.TransportStdio, Command: bin, Args: []string{"beta"}},
	}}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	if last["alpha"].State != mcpsession.Ready || last["beta"].State != mcpsession.Ready {
		t.Fatalf("alpha %+v\nbeta %+v\nwant both Ready", last["alpha"], last["beta"])
	}
	alpha, beta := last["alpha"].Offers, last["beta"].Offers
	if got, want := promptNames(alpha.Prompts), []string{"code review", "greet"}; !slices.Equal(got, want) {
		t.Errorf("alpha prompts = %q, want %q", got, want)
	}
	if got, want := promptNames(beta.Prompts), []string{"code_review", "greet"}; !slices.Equal(got, want) {
		t.Errorf("beta prompts = %q, want %q", got, want)
	}
	if len(alpha.Resources) != 2 || len(alpha.Templates) != 1 || alpha.Templates[0].URITemplate != "mem://alpha/items/{id}" {
		t.Errorf("alpha resources %+v templates %+v, want notes and logo, and items/{id}", alpha.Resources, alpha.Templates)
	}
	if !alpha.Subscribe || !alpha.Completions || len(alpha.Notes) != 0 {
		t.Errorf("alpha offers subscribe %v completions %v notes %q, want both and none", alpha.Subscribe, alpha.Completions, alpha.Notes)
	}
	i := slices.IndexFunc(alpha.Prompts, func(p model.Prompt) bool { return p.Name == "greet" })
	if args := alpha.Prompts[i].Arguments; len(args) != 1 || args[0].Name != "name" || !args[0].Required {
		t.Errorf("greet arguments = %+v, want name, required", args)
	}

	ctx := context.Background()
	read, err := s.ReadResource(ctx, "alpha", "mem://alpha/notes")
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "notes of alpha" || read.Contents[0].Type != "text" {
		t.Errorf("read notes = %+v, %v; want the text", read, err)
	}
	read, err = s.ReadResource(ctx, "alpha", "mem://alpha/logo")
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Type != "blob" || !bytes.Equal(read.Contents[0].Blob, []byte("\x89PNG")) {
		t.Errorf("read logo = %+v, %v; want the decoded blob", read, err)
	}
	if _, err := s.ReadResource(ctx, "alpha", "mem://alpha/nothing"); err == nil {
		t.Error("reading a resource that does not exist: no error")
	}

	got, err := s.GetPrompt(ctx, "beta", "greet", map[string]string{"name": "ada"})
	if err != nil || len(got.Messages) != 1 || got.Messages[0].Content.Text != "beta greets ada" || got.Messages[0].Role != "user" {
		t.Errorf("get greet = %+v, %v; want beta's greeting", got, err)
	}
	c, err := s.Complete(ctx, "alpha", loader.CompletionRef{Prompt: "greet"}, "name", "a", nil)
	if err != nil || !slices.Equal(c.Values, []string{"ada", "alan"}) {
		t.Errorf("complete name a = %+v, %v; want ada, alan", c, err)
	}
	c, err = s.Complete(ctx, "alpha", loader.CompletionRef{Template: "mem://alpha/items/{id}"}, "id", "1", nil)
	if err != nil || !slices.Equal(c.Values, []string{"1", "10"}) {
		t.Errorf("complete id 1 = %+v, %v; want 1, 10", c, err)
	}

	if err := s.Subscribe(ctx, "alpha", "mem://alpha/notes"); err != nil || !s.Subscribed("alpha", "mem://alpha/notes") {
		t.Fatalf("subscribe: %v", err)
	}
	if err := syscall.Kill(s.Pid("alpha"), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	var relisted []string
	for time.Now().Before(deadline) && !slices.Contains(relisted, "farewell") {
		select {
		case ev := <-s.Events():
			if ev.Server == "alpha" && ev.State == mcpsession.Ready {
				relisted = promptNames(ev.Offers.Prompts)
			}
		case <-time.After(50 * time.Millisecond):
		}
	}
	if !slices.Contains(relisted, "farewell") {
		t.Errorf("after prompts/list_changed alpha lists %q, want farewell too", relisted)
	}
	for time.Now().Before(deadline) {
		if ups, _ := s.ResourceUpdates("alpha"); len(ups) > 0 {
			if ups[0].URI != "mem://alpha/notes" {
				t.Errorf("update %+v, want mem://alpha/notes", ups[0])
			}
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ups, _ := s.ResourceUpdates("alpha"); len(ups) == 0 {
		t.Error("no notifications/resources/updated kept")
	}
	if err := s.Unsubscribe(ctx, "alpha", "mem://alpha/notes"); err != nil || s.Subscribed("alpha", "mem://alpha/notes") {
		t.Errorf("unsubscribe: %v", err)
	}
}

// TestOffersWithoutTools: a server that declares prompts and resources
// but not tools is not asked for tools, and is ready with none.
func TestOffersWithoutTools(t *testing.T) {
	bin := buildServer(t, "prompts")
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "alpha", Transport: config.TransportStdio, Command: bin, Args: []string{"alpha"},
		Env: []config.EnvVar{{Key: "PROMPTS_NO_TOOLS", Value: "1"}}}}}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	if ev := last["alpha"]; ev.State != mcpsession.Ready || len(ev.Tools) != 0 || len(ev.Offers.Prompts) != 2 {
		t.Fatalf("event = %+v, want Ready with no tools and two prompts", ev)
	}
	for _, f := range s.FrameLog("alpha").Frames() {
		if bytes.Contains(f.Bytes, []byte(`"tools/list"`)) {
			t.Errorf("tools/list sent to a server that declares no tools: %s", f.Bytes)
		}
	}
}

// TestEverythingOffers reads the reference server's resources, templates
// and prompts over stdio and streamable HTTP: a text and a blob read through its templates,
// prompts with arguments, one embedding a resource, and completions whose
// values depend on another argument.
func TestEverythingOffers(t *testing.T) {
	entry := everythingEntry(t)
	t.Run("stdio", func(t *testing.T) {
		everythingOffers(t, config.ServerSpec{Label: "everything", Transport: config.TransportStdio, Command: "node", Args: []string{entry, "stdio"}})
	})
	t.Run("streamableHttp", func(t *testing.T) {
		port := startEverything(t, entry, "streamableHttp")
		everythingOffers(t, config.ServerSpec{Label: "everything", Transport: config.TransportHTTP, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)})
	})
}

func everythingOffers(t *testing.T, spec config.ServerSpec) {
	cfg := &config.Config{Servers: []config.ServerSpec{spec}}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	ev := last["everything"]
	if ev.State != mcpsession.Ready {
		t.Fatalf("event = %+v, want Ready", ev)
	}
	o := ev.Offers
	if !slices.Contains(promptNames(o.Prompts), "args-prompt") || len(o.Resources) == 0 || len(o.Templates) == 0 || len(o.Notes) > 0 {
		t.Fatalf("offers: prompts %q, %d resources, %d templates, notes %q; want args-prompt and some of each",
			promptNames(o.Prompts), len(o.Resources), len(o.Templates), o.Notes)
	}
	ctx := context.Background()
	read, err := s.ReadResource(ctx, "everything", o.Resources[0].URI)
	if err != nil || len(read.Contents) == 0 || read.Contents[0].Type != "text" || read.Contents[0].Text == "" {
		t.Errorf("read %s = %+v, %v; want its text", o.Resources[0].URI, read.Contents, err)
	}
	read, err = s.ReadResource(ctx, "everything", "demo://resource/dynamic/blob/1")
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Type != "blob" || len(read.Contents[0].Blob) == 0 || read.Contents[0].BlobErr != "" {
		t.Errorf("read blob 1 = %+v, %v; want decoded bytes", read.Contents, err)
	}
	got, err := s.GetPrompt(ctx, "everything", "args-prompt", map[string]string{"city": "Lyon"})
	if err != nil || len(got.Messages) == 0 || !strings.Contains(got.Messages[0].Content.Text, "Lyon") {
		t.Errorf("args-prompt = %+v, %v; want Lyon in its message", got, err)
	}
	got, err = s.GetPrompt(ctx, "everything", "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "1"})
	if err != nil || !slices.ContainsFunc(got.Messages, func(m loader.PromptMessage) bool { return m.Content.Type == "resource" && m.Content.Text != "" }) {
		t.Errorf("resource-prompt = %+v, %v; want an embedded text resource", got, err)
	}
	dept, err := s.Complete(ctx, "everything", loader.CompletionRef{Prompt: "completable-prompt"}, "department", "", nil)
	if err != nil || len(dept.Values) == 0 {
		t.Fatalf("complete department = %+v, %v; want values", dept, err)
	}
	names, err := s.Complete(ctx, "everything", loader.CompletionRef{Prompt: "completable-prompt"}, "name", "", map[string]string{"department": dept.Values[0]})
	if err != nil || len(names.Values) == 0 {
		t.Errorf("complete name in %s = %+v, %v; want values", dept.Values[0], names, err)
	}
}
