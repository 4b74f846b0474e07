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

require (
	github.com/alibabacloud-go/darabonba-openapi/v2 v2.1.14
	github.com/alibabacloud-go/ecs-20140526/v7 v7.7.0
	github.com/alibabacloud-go/tea v1.3.13
	github.com/baidubce/bce-sdk-go v0.9.279
	github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/common v1.3.213
	github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/cvm v1.0.1000
	golang.org/x/text v0.44.0
)

require (
	github.com/alibabacloud-go/alibabacloud-gateway-spi v0.0.5 // indirect
	github.com/alibabacloud-go/debug v1.0.1 // indirect
	github.com/alibabacloud-go/tea-utils/v2 v2.0.7 // indirect
	github.com/aliyun/credentials-go v1.4.5 // indirect
	github.com/clbanning/mxj/v2 v2.7.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/tdewolff/parse/v2 v2.8.20 // indirect
	github.com/tjfoc/gmsm v1.4.1 // indirect
	golang.org/x/net v0.26.0 // indirect
	gopkg.in/ini.v1 v1.67.0 // indirect
)
