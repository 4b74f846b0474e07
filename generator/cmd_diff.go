package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/catdiff"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/site"
)

// cmdDiff prints the catalog changes between two site trees (or a git
// revision and a tree) as Markdown.
func cmdDiff(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseRev := fs.String("base-rev", "", "take the base catalog from this git revision of HEAD_DIR's repository (git archive REV data) instead of BASE_DIR")
	overlay := fs.String("overlay", "", "a team's overlay directory: add what the update changes for the team (contract prices above the public ones, contracts ending within 30 days, overrides of removed offers, new providers)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: generator diff [-overlay DIR] BASE_DIR [HEAD_DIR]")
		fmt.Fprintln(stderr, "       generator diff [-overlay DIR] -base-rev REV [HEAD_DIR]")
		fmt.Fprintln(stderr, "\nPrints the catalog changes from base to head (HEAD_DIR defaults to .) as Markdown.")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	var base, head catdiff.Side
	switch {
	case *baseRev != "" && len(pos) <= 1:
		head = catdiff.Side{Root: ".", Label: "."}
		if len(pos) == 1 {
			head = catdiff.Side{Root: pos[0], Label: pos[0]}
		}
		tmp, err := os.MkdirTemp("", "gpu-atlas-diff-")
		if err != nil {
			fmt.Fprintln(stderr, "diff:", err)
			return 1
		}
		defer os.RemoveAll(tmp)
		if err := catdiff.ExtractRev(head.Root, *baseRev, tmp); err != nil {
			fmt.Fprintln(stderr, "diff:", err)
			return 1
		}
		base = catdiff.Side{Root: tmp, Label: "git revision " + *baseRev}
	case *baseRev == "" && (len(pos) == 1 || len(pos) == 2):
		base = catdiff.Side{Root: pos[0], Label: pos[0]}
		head = catdiff.Side{Root: ".", Label: "."}
		if len(pos) == 2 {
			head = catdiff.Side{Root: pos[1], Label: pos[1]}
		}
	default:
		fs.Usage()
		return 2
	}
	now, err := site.Today()
	if err != nil {
		fmt.Fprintln(stderr, "diff:", err)
		return 2
	}
	var report string
	if *overlay != "" {
		report, err = catdiff.RunOverlay(base, head, catdiff.Overlay{Dir: *overlay}, now)
	} else {
		report, err = catdiff.Run(base, head, now)
	}
	var le *catdiff.LoadError
	switch {
	case errors.As(err, &le):
		printDiffLoadError(stderr, le, base, head, *baseRev)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "diff:", err)
		return 1
	}
	fmt.Fprint(stdout, report)
	return 0
}

// printDiffLoadError prints to w that a side's catalog does not load,
// then its diagnostics, each path named as the user can find it: under
// the side's root, as baseRev:path for a base taken from a git revision,
// as given for the overlay.
func printDiffLoadError(w io.Writer, le *catdiff.LoadError, base, head catdiff.Side, baseRev string) {
	fmt.Fprintf(w, "diff: the %s catalog (%s) does not load:\n", le.Side, le.Label)
	root := base.Root
	if le.Side == "head" {
		root = head.Root
	}
	for _, d := range le.Diags {
		switch {
		case le.Side == "overlay": // already named by the overlay's path
		case baseRev != "" && le.Side == "base":
			d.Path = baseRev + ":" + d.Path
		default:
			d.Path = filepath.ToSlash(filepath.Join(root, d.Path))
		}
		fmt.Fprintln(w, d.String())
	}
}
