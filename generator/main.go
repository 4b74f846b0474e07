// Command generator builds GPU Atlas: a static site comparing cloud GPUs.
//
//	go run ./generator build [-root DIR] [-out DIR] [-base-url URL]
//	go run ./generator serve [-addr 127.0.0.1:8080]
//	go run ./generator check [-format text|github|json]
//	go run ./generator size -model llama-3-8b -workload lora -json
//	go run ./generator schema|new|diff|import|nginx-conf ...
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/capture"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/devserver"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

const usage = `usage: generator <command> [flags]

commands:
  build       build the site into an output directory
  serve       build, serve on a local address, rebuild and reload on changes
  preview     build with precompression and serve as a static host would
  check       validate data and guides only; exit 1 on errors
  size        estimate GPU memory, GPU count, FLOPs and cost for a model
  schema      write the JSON Schemas of the data files (for editors) into a directory
  new         write a commented template for a new gpu, provider, offer, model or guide
  diff        report catalog changes between two trees (or a git revision and a tree) as Markdown
  capture     ask the providers' own price APIs, store the answers as evidence, merge their prices as history
  import      turn a price table (fsdl, skypilot, gcp, azure, aws) into offers TOML for review, or -merge it as history
  nginx-conf  write nginx.conf for a built site with the headers of its _headers (the container image's server)

Run "generator <command> -h" for the flags of a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "build":
		return cmdBuild(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "preview":
		return cmdPreview(args[1:], stdout, stderr)
	case "size":
		return cmdSize(args[1:], stdout, stderr)
	case "schema":
		return cmdSchema(args[1:], stdout, stderr)
	case "new":
		return cmdNew(args[1:], stdout, stderr)
	case "diff":
		return cmdDiff(args[1:], stdout, stderr)
	case "import":
		return cmdImport(args[1:], stdout, stderr)
	case "capture":
		return cmdCapture(args[1:], stdout, stderr)
	case "nginx-conf":
		return cmdNginxConf(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "generator: unknown command %q\n\n%s", args[0], usage)
	return 2
}

type buildFlags struct {
	root, out, baseURL   string
	noCompress, noMinify bool
	force, noCache       bool
	cacheDir             string
	overlay              string
	cpuProfile           string
}

func (b *buildFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.root, "root", ".", "site root holding data/, content/, templates/ and static/")
	fs.StringVar(&b.out, "out", "public", "output directory, replaced atomically on success; must be absent, empty or a previous build")
	fs.StringVar(&b.baseURL, "base-url", "", "URL the site is served from, e.g. https://intranet.example/gpu/ (default: base_url in data/site.toml)")
	fs.BoolVar(&b.noCompress, "no-precompress", false, "do not write .br and .gz siblings of text files")
	fs.BoolVar(&b.noMinify, "no-minify", false, "leave HTML, SVG, JSON and XML unminified (for reading the output)")
	fs.BoolVar(&b.noCache, "no-cache", false, "compress every file afresh instead of reusing the precompression cache")
	fs.StringVar(&b.cacheDir, "cache-dir", "", "precompression cache directory (default: the user cache directory's gpu-atlas/precompress; safe to delete)")
	fs.StringVar(&b.overlay, "overlay", "", "a team's overlay directory (contract prices, internal pools, hidden providers, guides, site.toml) merged on top of the public data and guides")
	fs.BoolVar(&b.force, "force", false, "replace -out even when it exists and was not written by the generator (never the site root or its source folders)")
	fs.StringVar(&b.cpuProfile, "cpuprofile", "", "write a CPU profile of the build to this file (read it with go tool pprof)")
}

func (b *buildFlags) options() (site.Options, error) {
	now, err := site.Today()
	if err != nil {
		return site.Options{}, err
	}
	return site.Options{Root: b.root, Out: b.out, BaseURL: b.baseURL, Now: now, Precompress: !b.noCompress, NoMinify: b.noMinify, Force: b.force, NoCache: b.noCache, CacheDir: b.cacheDir, Overlay: b.overlay}, nil
}

func cmdBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var bf buildFlags
	bf.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	_, code := doBuild(bf, stdout, stderr)
	return code
}

func doBuild(bf buildFlags, stdout, stderr io.Writer) (*site.Result, int) {
	start := time.Now()
	o, err := bf.options()
	if err != nil {
		fmt.Fprintln(stderr, "build:", err)
		return nil, 2
	}
	o.Stream = true // one page in memory at a time; nothing here reads Result.Tree
	if bf.cpuProfile != "" {
		f, err := os.Create(bf.cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "build: -cpuprofile:", err)
			return nil, 2
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	res, d := site.Run(o)
	// Errors in full; warnings (old prices, stray files) are counted, and
	// `check` lists them.
	for _, e := range d.Errors() {
		fmt.Fprintln(stderr, e.String())
	}
	if n := d.Len() - len(d.Errors()); n > 0 {
		fmt.Fprintf(stderr, "%d warning(s): run \"go run ./generator check\" to list them\n", n)
	}
	if res == nil {
		fmt.Fprintf(stderr, "build failed: %d error(s); %s left untouched\n", len(d.Errors()), o.Out)
		return nil, 1
	}
	if res.Origin == "" {
		fmt.Fprintln(stderr, "note:", site.Unanchored)
	}
	fmt.Fprintf(stdout, "built %d pages, %d files, %d bytes in %s -> %s\n", res.Pages, res.Files, res.Bytes, time.Since(start).Round(time.Millisecond), o.Out)
	return res, 0
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "site root holding data/ and content/")
	format := fs.String("format", "text", "output format: text, github (GitHub Actions annotations) or json (one object on stdout: errors, warnings, diagnostics)")
	ov := fs.String("overlay", "", "a team's overlay directory to validate with the public data")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	now, err := site.Today()
	if err != nil {
		fmt.Fprintln(stderr, "check:", err)
		return 2
	}
	d := site.Check(site.Options{Root: *root, Now: now, Overlay: *ov})
	// Every capture kept as evidence, cited or not: a failed answer is
	// not evidence and must not reach a pull request.
	d.Merge(capture.CheckFiles(*root))
	switch *format {
	case "github":
		d.PrintGitHub(stdout)
	case "text":
		d.Print(stderr)
	case "json":
		// The object is the whole of stdout, ok or not: no summary line.
		if err := d.PrintJSON(stdout); err != nil {
			fmt.Fprintln(stderr, "check:", err)
			return 2
		}
		if d.HasErrors() {
			return 1
		}
		return 0
	default:
		fmt.Fprintf(stderr, "check: unknown -format %q (text, github, json)\n", *format)
		return 2
	}
	if d.HasErrors() {
		fmt.Fprintf(stderr, "check: %d error(s)\n", len(d.Errors()))
		return 1
	}
	fmt.Fprintln(stdout, "check: ok")
	return 0
}

func cmdServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var bf buildFlags
	bf.register(fs)
	addr := fs.String("addr", devserver.DefaultAddr, "address to listen on; a bare :PORT binds loopback too (name a host, e.g. 0.0.0.0:8080, to serve other machines)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bf.noCompress = true // served plain; .br/.gz siblings would only slow rebuilds
	o, err := bf.options()
	if err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return 2
	}
	// Build, serve, and rebuild on every change of content/, data/,
	// templates/, static/ or the overlay until Ctrl-C; see package
	// devserver.
	srv, err := devserver.New(devserver.Config{Build: o, Today: site.Today, Addr: *addr, Stdout: stdout, Stderr: stderr})
	if err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Run(ctx); err != nil {
		fmt.Fprintln(stderr, "serve:", err)
		return 1
	}
	return 0
}
