module github.com/gpu-atlas/gpu-atlas

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/andybalholm/brotli v1.2.0
	github.com/chromedp/cdproto v0.159.0 // chromedp's DevTools protocol types (browser tests)
	github.com/chromedp/chromedp v0.23.0 // browser tests driven from Go (generator/internal/browsertest): headless Chromium over DevTools
	github.com/evanw/esbuild v0.28.2
	github.com/fsnotify/fsnotify v1.10.1 // dev server (generator/internal/devserver): file-change notifications for the watched source trees
	github.com/tdewolff/minify/v2 v2.24.25
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v4 v4.0.0 // importer (generator import -format gcp): YAML nodes with line and column, and positioned syntax errors
	golang.org/x/sys v0.49.0 // output swap: renameat2(RENAME_EXCHANGE) replaces the output directory in one step on Linux
)

require golang.org/x/text v0.44.0

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/tdewolff/parse/v2 v2.8.20 // indirect
)
