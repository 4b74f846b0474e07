package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/build"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/catalog"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/importer"
)

// cmdImport turns a third-party price table into offers TOML for review,
// reporting every row it cannot map or that fails a check.
func cmdImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "", "input format: "+strings.Join(importer.Formats(), " or "))
	out := fs.String("out", "import-out", "directory to write one offers file per provider into")
	root := fs.String("root", ".", "site root whose data/ the rows are checked against (GPU ids and memory, providers, regions)")
	asOf := fs.String("as-of", "", "YYYY-MM-DD: the date the prices were true (required for skypilot, and for fsdl without a \"Row Last Changed\" column)")
	provider := fs.String("provider", "", "skypilot: the provider id (default: from the file's directory, e.g. aws/vms.csv)")
	source := fs.String("source", "", "skypilot: the URL the table was read from (a pinned commit)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: generator import -format fsdl|skypilot FILE [-out DIR] [-root DIR] [-as-of YYYY-MM-DD] [-provider ID] [-source URL]")
		fmt.Fprintln(stderr, "\nReports every row it cannot import as FILE:ROW:COL: message, writes the rest as offers TOML for review,")
		fmt.Fprintln(stderr, "and exits 0 (reports are expected); 2 on usage errors.")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || *format == "" {
		fs.Usage()
		return 2
	}
	now, err := build.Today()
	if err != nil {
		fmt.Fprintln(stderr, "import:", err)
		return 2
	}
	o := importer.Options{Format: *format, File: pos[0], Provider: *provider, Source: *source, Now: now}
	if *asOf != "" {
		d, err := time.Parse(time.DateOnly, *asOf)
		if err != nil || d.After(now) {
			fmt.Fprintf(stderr, "import: -as-of %q is not a date (YYYY-MM-DD) up to today\n", *asOf)
			return 2
		}
		o.AsOf = d
	}
	cat, d := catalog.Load(*root, now)
	if cat == nil {
		d.Print(stderr)
		fmt.Fprintf(stderr, "import: the catalog under %s does not load; rows cannot be checked against it\n", *root)
		return 1
	}
	o.Catalog = cat
	f, err := os.Open(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, "import:", err)
		return 2
	}
	defer f.Close()
	res, err := importer.Import(f, o)
	var usageErr *importer.UsageError
	switch {
	case errors.As(err, &usageErr):
		fmt.Fprintln(stderr, "import:", err)
		return 2
	case err != nil:
		fmt.Fprintln(stderr, "import:", err)
		return 1
	}
	res.Reports.Print(stderr)
	paths, err := importer.WriteDir(*out, res)
	if err != nil {
		fmt.Fprintln(stderr, "import:", err)
		return 1
	}
	summary := fmt.Sprintf("%d rows imported, %d rows reported", res.Imported, res.Reported)
	if res.Skipped > 0 {
		summary += fmt.Sprintf(", %d CPU-only rows skipped", res.Skipped)
	}
	fmt.Fprintf(stdout, "%s; wrote %d file(s) to %s for review\n", summary, len(paths), *out)
	return 0
}
