// Package assets makes the site's static files: the stylesheet and script
// bundles (esbuild: bundled, minified, content-hashed), the calculator's
// WebAssembly compiled from generator/wasm (or reused from a previous
// build), the other files under static/ as they are, and the minifier of
// the pages and data files.
package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
)

// Bundle bundles and minifies the entry points static/js/*.js and
// static/css/*.css with esbuild (files starting with "_" are partials,
// reachable by import only), writes them under assets/ with a content hash
// in the name, copies every other file under static/ as is, and returns
// the manifest: logical name ("js/calculator.js") -> output path.
func Bundle(root string, tree *output.Tree, d *diag.List) map[string]string {
	dir, manifest, entries := staticFiles(root, tree, d)
	if len(entries) == 0 {
		return manifest
	}
	res := api.Build(api.BuildOptions{
		AbsWorkingDir:     dir,
		EntryPoints:       entries,
		Bundle:            true,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Target:            api.ES2020,
		Format:            api.FormatIIFE,
		Outdir:            filepath.Join(dir, "_out"),
		Outbase:           dir,
		EntryNames:        "[dir]/[name].[hash]",
		AssetNames:        "[dir]/[name].[hash]",
		Loader:            map[string]api.Loader{".svg": api.LoaderFile, ".woff2": api.LoaderFile},
		Write:             false,
		LegalComments:     api.LegalCommentsEndOfFile,
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelSilent,
	})
	for _, m := range res.Errors {
		if m.Location != nil {
			d.Errorf(filepath.ToSlash(filepath.Join("static", m.Location.File)), m.Location.Line, m.Location.Column+1, "%s", m.Text)
		} else {
			d.Errorf("static", 0, 0, "%s", m.Text)
		}
	}
	out := filepath.Join(dir, "_out")
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(out, f.Path)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		dst := "assets/" + rel
		tree.Add(dst, f.Contents)
		// js/calculator.HASH.js -> js/calculator.js
		parts := strings.Split(rel, ".")
		if len(parts) >= 3 {
			logical := strings.Join(parts[:len(parts)-2], ".") + "." + parts[len(parts)-1]
			manifest[logical] = dst
		}
	}
	return manifest
}

// staticFiles adds the files under root's static/ that are copied as they
// are to tree and manifest, and returns static/'s absolute path, the
// manifest and the bundles' entry points (static/js/*.js, static/css/*.css
// not starting with "_"), sorted.
func staticFiles(root string, tree *output.Tree, d *diag.List) (dir string, manifest map[string]string, entries []string) {
	dir, err := filepath.Abs(filepath.Join(root, "static"))
	if err != nil {
		d.Errorf("static", 0, 0, "%v", err)
		return "", nil, nil
	}
	manifest = map[string]string{}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		top, name, _ := strings.Cut(rel, "/")
		if top == "js" || top == "css" {
			if !strings.HasPrefix(name, "_") && !strings.Contains(name, "/") && (strings.HasSuffix(name, ".js") || strings.HasSuffix(name, ".css")) {
				entries = append(entries, rel)
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			d.Errorf("static/"+rel, 0, 0, "cannot read: %v", err)
			return nil
		}
		tree.Add(rel, b)
		manifest[rel] = rel
		return nil
	})
	sort.Strings(entries)
	return dir, manifest, entries
}

// Names is Bundle and WASM without their work, for a check that renders
// every page but writes nothing: the files under static/ copied as they
// are, and an empty placeholder under assets/ for each bundle and for the
// WebAssembly files, so pages name every asset and their links resolve.
func Names(root string, tree *output.Tree, d *diag.List) map[string]string {
	_, manifest, entries := staticFiles(root, tree, d)
	for _, e := range append(entries, wasmNames...) {
		p := "assets/" + e
		tree.Add(p, nil)
		manifest[e] = p
	}
	return manifest
}

// addHashed adds data under prefix + "." + a content hash + ext and returns
// the path.
func addHashed(tree *output.Tree, prefix, ext string, data []byte) string {
	sum := sha256.Sum256(data)
	p := prefix + "." + hex.EncodeToString(sum[:5]) + ext
	tree.Add(p, data)
	return p
}

// minifyJS minifies a standalone script with esbuild (used for Go's
// wasm_exec.js, which is not bundled).
func minifyJS(src []byte, name string, d *diag.List) []byte {
	res := api.Transform(string(src), api.TransformOptions{Loader: api.LoaderJS, MinifyWhitespace: true, MinifySyntax: true, MinifyIdentifiers: true, Target: api.ES2020, LegalComments: api.LegalCommentsEndOfFile})
	for _, m := range res.Errors {
		line, col := 0, 0
		if m.Location != nil {
			line, col = m.Location.Line, m.Location.Column+1
		}
		d.Errorf(name, line, col, "%s", m.Text)
	}
	if len(res.Errors) > 0 {
		return src
	}
	return res.Code
}
