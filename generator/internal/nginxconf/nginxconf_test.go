package nginxconf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// site writes a minimal build output: _headers, 404.html and zh/404.html.
func site(t *testing.T, headers string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"_headers": headers, "404.html": "x", "zh/404.html": "x", "assets/a.css": "x"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestConfig(t *testing.T) {
	dir := site(t, "# comment\n/gpu/*\n  X-A: 1\n  Cache-Control: short\n\n/gpu/assets/*\n  Cache-Control: long\n/gpu/feed.xml\n  X-B: \"q\"\n")
	conf, err := Config(Options{Site: dir, Base: "/gpu/", Listen: "80", BrotliModule: DefaultBrotliModule, MimeTypes: DefaultMimeTypes})
	if err != nil {
		t.Fatal(err)
	}
	block := func(head string) string {
		i := strings.Index(conf, "        "+head+" {\n")
		if i < 0 {
			t.Fatalf("no %q in\n%s", head, conf)
		}
		rest := conf[i:]
		return rest[:strings.Index(rest, "        }\n")]
	}
	for head, want := range map[string][]string{
		"location /gpu/":           {"alias site/;", `add_header X-A "1" always;`, `add_header Cache-Control "short" always;`, "error_page 403 404 =404 /gpu/404.html;"},
		"location /gpu/assets/":    {"alias site/assets/;", `add_header X-A "1" always;`, `add_header Cache-Control "long" always;`, "=404 /gpu/404.html;"},
		"location /gpu/zh/":        {"alias site/zh/;", `add_header X-A "1" always;`, `add_header Cache-Control "short" always;`, "=404 /gpu/zh/404.html;"},
		"location = /gpu/feed.xml": {"alias site/feed.xml;", `add_header X-A "1" always;`, `add_header X-B "\"q\"" always;`},
		"location = /":             {"return 302 /gpu/;"},
		"location = /gpu":          {"return 301 /gpu/;"},
		"location = /gpu/_headers": {"return 404;"},
		"location ~ /\\.":          {"return 404;"},
	} {
		b := block(head)
		for _, w := range want {
			if !strings.Contains(b, w) {
				t.Errorf("%s lacks %s:\n%s", head, w, b)
			}
		}
		if strings.Contains(b, "short") && strings.Contains(b, "long") {
			t.Errorf("%s has both Cache-Control values:\n%s", head, b)
		}
	}

	if !strings.Contains(conf, "        location / {\n            return 404;") {
		t.Errorf("no 404 location for paths outside /gpu/:\n%s", conf)
	}

	// At the site's root there is nothing to redirect or refuse outside it.
	root, err := Config(Options{Site: site(t, "/*\n  X-A: 1\n"), Base: "/", Listen: "80", MimeTypes: DefaultMimeTypes})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(root, "return 302") || strings.Contains(root, "brotli") || !strings.Contains(root, "location /zh/ {") {
		t.Errorf("config for / (no brotli):\n%s", root)
	}
}

func TestConfigRefuses(t *testing.T) {
	for _, c := range []struct{ headers, want string }{
		{"/*\n  X-A: 1\n", `"/*" is not under the base path /gpu/`},
		{"/gpu/:lang/*\n  X-A: 1\n", "only a path, or a path ending in *"},
		{"/gpu/*.css\n  X-A: 1\n", "only a path, or a path ending in *"},
		{"https://host/gpu/*\n  X-A: 1\n", "only a path"},
		{"  X-A: 1\n", "_headers:1: a header before any path"},
		{"/gpu/*\n  ! X-A\n", "header removal"},
		{"/gpu/*\n  no colon\n", `_headers:2: "no colon" is not "Name: value"`},
		{"/gpu/*\n  X-A: $host\n", `"$"`},
	} {
		_, err := Config(Options{Site: site(t, c.headers), Base: "/gpu/", Listen: "80", MimeTypes: DefaultMimeTypes})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %s", c.headers, err, c.want)
		}
	}
	if _, err := Config(Options{Site: t.TempDir(), Base: "/gpu/", Listen: "80"}); err == nil || !strings.Contains(err.Error(), "GPU Atlas build") {
		t.Errorf("a directory without _headers: %v", err)
	}
}

func TestBasePath(t *testing.T) {
	for in, want := range map[string]string{
		"https://intranet.example/gpu/": "/gpu/",
		"https://intranet.example/gpu":  "/gpu/",
		"https://owner.github.io/repo/": "/repo/",
		"https://www.example.com":       "/",
		"/docs/gpu":                     "/docs/gpu/",
	} {
		if got, err := BasePath(in); err != nil || got != want {
			t.Errorf("BasePath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"https:///gpu/", "https://host/a b/", "https://host/$x/"} {
		if _, err := BasePath(in); err == nil {
			t.Errorf("BasePath(%q): no error", in)
		}
	}
}
